import { createFileRoute } from '@tanstack/react-router'
import { bulkJob, bulkJobList, bulkLimits, bulkUploadForm } from '~/contracts/bulk'
import { bulkJobsFor } from '~/server/api/bulk/jobs'
import { uploadBulkJob } from '~/server/api/bulk/upload'
import { receiveBulkUpload } from '~/server/http/bulk-upload'
import { endpoint } from '~/server/http/endpoint'

const mib = bulkLimits.maxFileBytes / 1024 / 1024

export const Route = createFileRoute('/v1/bulk-embeddings/')({
  server: {
    handlers: {
      POST: endpoint(
        {
          summary: 'Start a bulk embedding job',
          description: `Upload a file of texts (CSV with a \`text\` column, TSV, or one text per line; UTF-8; at most ${mib} MiB and ${bulkLimits.maxRows.toLocaleString('en-US')} texts of at most ${bulkLimits.maxRowCharacters.toLocaleString('en-US')} characters). The job embeds them in batches of ${bulkLimits.batchSize}, each charged per input token (cl100k_base) as it runs; texts longer than the model's input limit are truncated to it. A key without balance gets 402 before the file is read; a job whose key runs dry stops as \`failed\`, with the texts done so far downloadable. The result is JSON lines, one \`{"index", "id"?, "embedding"}\` per text in input order.`,
          auth: 'key',
          limit: 'embeddings',
          metered: 'bulk-embeddings',
          upload: { schema: bulkUploadForm, files: ['file'] },
          answer: bulkJob,
          errors: [400, 401, 402, 403, 413, 422, 429, 507],
        },
        ({ caller, request }) => uploadBulkJob(caller, receiveBulkUpload(request)),
      ),
      GET: endpoint(
        {
          summary: "The key's bulk embedding jobs, newest first",
          description: `The latest ${bulkLimits.listed} jobs.`,
          auth: 'key',
          answer: bulkJobList,
          errors: [401, 429],
        },
        ({ caller }) => bulkJobsFor(caller),
      ),
    },
  },
})
