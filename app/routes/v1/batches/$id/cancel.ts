import { createFileRoute } from '@tanstack/react-router'
import { batchObject } from '~/contracts/batches'
import { cancelBatchFor } from '~/server/api/batches/batches'
import { endpoint } from '~/server/http/endpoint'

export const Route = createFileRoute('/v1/batches/$id/cancel')({
  server: {
    handlers: {
      POST: endpoint(
        {
          summary: 'Cancel a batch',
          description:
            'The batch stops after the part under way; what it finished is in its output and error files. 409 when it has already ended.',
          auth: 'key',
          answer: batchObject,
          errors: [401, 404, 409, 429],
        },
        ({ caller, params }) => cancelBatchFor(caller, params.id),
      ),
    },
  },
})
