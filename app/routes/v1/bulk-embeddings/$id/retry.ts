import { createFileRoute } from '@tanstack/react-router'
import { bulkJob } from '~/contracts/bulk'
import { retryBulkJobFor } from '~/server/api/bulk/jobs'
import { endpoint } from '~/server/http/endpoint'

export const Route = createFileRoute('/v1/bulk-embeddings/$id/retry')({
  server: {
    handlers: {
      POST: endpoint(
        {
          summary: 'Retry a failed bulk job',
          description:
            'The job waits for a worker again and resumes after the last batch it finished, so no text is embedded or charged twice. 409 unless the job failed.',
          auth: 'key',
          answer: bulkJob,
          errors: [401, 404, 409, 429],
        },
        ({ caller, params }) => retryBulkJobFor(caller, params.id),
      ),
    },
  },
})
