import { createFileRoute } from '@tanstack/react-router'
import { bulkJob } from '~/contracts/bulk'
import { cancelBulkJobFor } from '~/server/api/bulk/jobs'
import { endpoint } from '~/server/http/endpoint'

export const Route = createFileRoute('/v1/bulk-embeddings/$id/cancel')({
  server: {
    handlers: {
      POST: endpoint(
        {
          summary: 'Cancel a waiting or running bulk job',
          description:
            'The job fails at once with `error: "Cancelled on request"`; a running one stops after its batch under way, and the texts done so far stay downloadable. 409 when it has already finished.',
          auth: 'key',
          answer: bulkJob,
          errors: [401, 404, 409, 429],
        },
        ({ caller, params }) => cancelBulkJobFor(caller, params.id),
      ),
    },
  },
})
