import { createServerFn } from '@tanstack/react-start'
import { bulkJobInput } from '~/contracts/bulk'
import { keyedInput } from '~/contracts/dashboard'
import { bulkDownloadFor, bulkJobsFor, cancelBulkJobFor, retryBulkJobFor } from '~/server/api/bulk/jobs'
import { validatorOf } from '~/server/http/input'
import { serverFnCaller } from '~/server/http/server-fn-caller'
import { apiCall } from '~/lib/api-call'

/**
 * The bulk-embedding calls for the dashboard: the same operations as /v1/bulk-embeddings/*. The upload
 * itself goes to POST /v1/bulk-embeddings (spec §7's main API), where the file streams to storage.
 */

export const fetchBulkJobs = createServerFn({ method: 'POST' })
  .middleware([apiCall])
  .validator(validatorOf(keyedInput))
  .handler(({ data }) => bulkJobsFor(serverFnCaller(data.apiKey)))

export const cancelBulkJob = createServerFn({ method: 'POST' })
  .middleware([apiCall])
  .validator(validatorOf(bulkJobInput))
  .handler(({ data }) => cancelBulkJobFor(serverFnCaller(data.apiKey), data.id))

export const retryBulkJob = createServerFn({ method: 'POST' })
  .middleware([apiCall])
  .validator(validatorOf(bulkJobInput))
  .handler(({ data }) => retryBulkJobFor(serverFnCaller(data.apiKey), data.id))

export const bulkDownloadLink = createServerFn({ method: 'POST' })
  .middleware([apiCall])
  .validator(validatorOf(bulkJobInput))
  .handler(({ data }) => bulkDownloadFor(serverFnCaller(data.apiKey), data.id))
