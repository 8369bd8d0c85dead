import { createFileRoute } from '@tanstack/react-router'
import { batchObject } from '~/contracts/batches'
import { batchFor } from '~/server/api/batches/batches'
import { endpoint } from '~/server/http/endpoint'

export const Route = createFileRoute('/v1/batches/$id/')({
  server: {
    handlers: {
      GET: endpoint(
        {
          summary: 'A batch: its status, counts and files',
          description: "Another key's batch is not found (404).",
          auth: 'key',
          answer: batchObject,
          errors: [401, 404, 429],
        },
        ({ caller, params }) => batchFor(caller, params.id),
      ),
    },
  },
})
