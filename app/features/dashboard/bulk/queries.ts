import { mutationOptions, queryOptions, type QueryClient } from '@tanstack/react-query'
import type { BulkJob } from '~/contracts/bulk'
import { bulkDownloadLink, cancelBulkJob, fetchBulkJobs, retryBulkJob } from '../bulk.functions'
import { dashboardKeys, toastError } from '../queries'

export const bulkJobsKey = (apiKey: string) => [...dashboardKeys.ofKey(apiKey), 'bulk-jobs'] as const

const isActive = (job: BulkJob) => job.status === 'waiting' || job.status === 'in-progress'

/** The key's jobs; polled every 2 s while one is waiting or running, so progress moves without a reload. */
export const bulkJobsQuery = (apiKey: string) =>
  queryOptions({
    queryKey: bulkJobsKey(apiKey),
    queryFn: ({ signal }) => fetchBulkJobs({ data: { apiKey }, signal }).then((answer) => answer.data),
    refetchInterval: (query) => (query.state.data?.some(isActive) ? 2000 : false),
    staleTime: 0,
    retry: false,
  })

const jobAction = (run: typeof cancelBulkJob) => (queryClient: QueryClient) =>
  mutationOptions({
    mutationFn: (input: { apiKey: string; id: string }) => run({ data: input }),
    onSuccess: (_, { apiKey }) => queryClient.invalidateQueries({ queryKey: bulkJobsKey(apiKey) }),
    onError: toastError,
  })

export const cancelJobMutation = jobAction(cancelBulkJob)
export const retryJobMutation = jobAction(retryBulkJob)

export const downloadLinkMutation = () =>
  mutationOptions({
    mutationFn: (input: { apiKey: string; id: string }) => bulkDownloadLink({ data: input }),
    onError: toastError,
  })
