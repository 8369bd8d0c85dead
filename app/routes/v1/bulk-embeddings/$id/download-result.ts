import { createFileRoute } from '@tanstack/react-router'
import { bulkDownload, bulkLimits } from '~/contracts/bulk'
import { bulkDownloadFor } from '~/server/api/bulk/jobs'
import { endpoint } from '~/server/http/endpoint'

export const Route = createFileRoute('/v1/bulk-embeddings/$id/download-result')({
  server: {
    handlers: {
      POST: endpoint(
        {
          summary: "A link to a bulk job's result",
          description: `A URL that downloads the result (JSON lines) without a key for ${bulkLimits.downloadUrlSeconds / 60} minutes. A completed job gives every text; a failed one the texts done before it stopped. 409 while the job runs, or when it has no texts done.`,
          auth: 'key',
          answer: bulkDownload,
          errors: [401, 404, 409, 410, 429],
        },
        ({ caller, params }) => bulkDownloadFor(caller, params.id),
      ),
    },
  },
})
