import { queryOptions } from '@tanstack/react-query'
import type { Organisation } from '~/contracts/organisations'
import type { UsageSummary } from '~/contracts/usage-summary'
import { restCall } from '~/lib/rest-call'
import type { DayRange } from './consumption-data'

/** The organisations the signed-in account is in, for the usage tab's scope: only those shared with others. */
export const teamOrganisationsQuery = (signedIn: boolean) =>
  queryOptions({
    queryKey: ['dashboard', 'usage-organisations'],
    queryFn: ({ signal }) => restCall<{ organisations: Organisation[] }>('GET', 'account/organisations', { signal }),
    select: (answer) => answer.organisations.filter((organisation) => !organisation.personal),
    enabled: signedIn,
    staleTime: 60_000,
  })

/** An organisation's usage over every key of it (or the one `keyId` names), as the member's role may see it. */
export const organisationUsageQuery = (organisationId: string, range: DayRange, keyId: string) =>
  queryOptions({
    queryKey: ['dashboard', 'organisation-usage', organisationId, range, keyId],
    queryFn: ({ signal }) => {
      const query = new URLSearchParams({ start: range.start, end: range.end, ...(keyId ? { key_id: keyId } : {}) })
      return restCall<UsageSummary>(
        'GET',
        `account/organisations/${encodeURIComponent(organisationId)}/usage_summary?${query}`,
        {
          signal,
        },
      )
    },
    staleTime: 0,
    retry: false,
  })
