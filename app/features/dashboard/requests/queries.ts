import { infiniteQueryOptions } from '@tanstack/react-query'
import type { RequestLogFilters } from '~/contracts/request-log'
import { dashboardKeys } from '../queries'
import { fetchRequestLog } from '../request-log.functions'

export const PAGE_SIZE = 50

/** The log under `filters`, a page at a time, newest first. */
export const requestLogQuery = (apiKey: string, filters: RequestLogFilters) =>
  infiniteQueryOptions({
    queryKey: [...dashboardKeys.ofKey(apiKey), 'requests', filters] as const,
    queryFn: ({ pageParam, signal }) =>
      fetchRequestLog({ data: { apiKey, ...filters, num_records: String(PAGE_SIZE), cursor: pageParam }, signal }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.next_cursor ?? undefined,
    // Requests made elsewhere land at any time: refetch whenever the tab shows them.
    staleTime: 0,
    retry: false,
  })
