import { createFileRoute } from '@tanstack/react-router'
import { Readable } from 'node:stream'
import * as v from 'valibot'
import { bulkDownloadQuery } from '~/contracts/bulk'
import { signedShot } from '~/server/api/reader/shots'
import { endpoint } from '~/server/http/endpoint'

export const Route = createFileRoute('/v1/reader/shots/$id')({
  server: {
    handlers: {
      GET: endpoint(
        {
          summary: 'A reader screenshot, by signed link',
          description:
            'The `screenshotUrl` or `pageshotUrl` a read answered: no key, but a signature over the image and the expiry (24 hours). An altered or expired link gets 403.',
          auth: 'none',
          group: 'v1',
          query: bulkDownloadQuery,
          answer: v.string(),
          alternatives: [{ mediaType: 'image/png', description: 'The screenshot' }],
          errors: [403, 404, 422],
        },
        async ({ params, query }) => {
          const body = await signedShot(params.id, { expires: Number(query.expires), signature: query.signature })
          return new Response(Readable.toWeb(Readable.from(body)) as ReadableStream, {
            headers: { 'content-type': 'image/png', 'cache-control': 'private, max-age=3600' },
          })
        },
      ),
    },
  },
})
