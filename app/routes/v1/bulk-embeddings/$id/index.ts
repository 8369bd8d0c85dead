import { createFileRoute } from '@tanstack/react-router'
import { bulkJob } from '~/contracts/bulk'
import { bulkJobFor } from '~/server/api/bulk/jobs'
import { endpoint } from '~/server/http/endpoint'

export const Route = createFileRoute('/v1/bulk-embeddings/$id/')({
  server: {
    handlers: {
      GET: endpoint(
        {
          summary: 'A bulk embedding job: its status and progress',
          description: "`processed_rows` of `total_rows` are embedded so far. Another key's job is not found (404).",
          auth: 'key',
          answer: bulkJob,
          errors: [401, 404, 429],
        },
        ({ caller, params }) => bulkJobFor(caller, params.id),
      ),
    },
  },
})
