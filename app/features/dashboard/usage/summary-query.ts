import type { DayRange } from './consumption-data'
import { queryOptions } from '@tanstack/react-query'
import { dashboardKeys } from '../queries'
import { fetchUsageSummary } from '../usage-summary.functions'

export const usageSummaryQuery = (apiKey: string, range: DayRange, keyId: string) =>
  queryOptions({
    queryKey: dashboardKeys.usageSummary(apiKey, range, keyId),
    queryFn: ({ signal }) =>
      fetchUsageSummary({ data: { apiKey, ...range, ...(keyId ? { key_id: keyId } : {}) }, signal }),
    // Usage recorded elsewhere changes these at any time: refetch whenever the tab shows them.
    staleTime: 0,
    retry: false,
  })
