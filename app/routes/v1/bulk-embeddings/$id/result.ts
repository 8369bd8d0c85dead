import { createFileRoute } from '@tanstack/react-router'
import * as v from 'valibot'
import { bulkDownloadQuery } from '~/contracts/bulk'
import { signedResultFor } from '~/server/api/bulk/jobs'
import { endpoint } from '~/server/http/endpoint'
import { Readable } from 'node:stream'

export const Route = createFileRoute('/v1/bulk-embeddings/$id/result')({
  server: {
    handlers: {
      GET: endpoint(
        {
          summary: "A bulk job's result file, by signed link",
          description:
            'The URL `download-result` gives: no key, but a signature over the job and the expiry. An altered or expired link gets 403.',
          auth: 'none',
          query: bulkDownloadQuery,
          answer: v.string(),
          alternatives: [
            { mediaType: 'application/x-ndjson', description: 'One `{"index", "id"?, "embedding"}` per text' },
          ],
          errors: [403, 404, 410, 422],
        },
        async ({ params, query }) => {
          const { body, fileName } = await signedResultFor(params.id, {
            expires: Number(query.expires),
            signature: query.signature,
          })
          return new Response(Readable.toWeb(Readable.from(body)) as ReadableStream, {
            headers: {
              'content-type': 'application/x-ndjson; charset=utf-8',
              'content-disposition': `attachment; filename="${fileName.replace(/["\\\r\n]/g, '_')}"`,
              'cache-control': 'private, no-store',
            },
          })
        },
      ),
    },
  },
})
