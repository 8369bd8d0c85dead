import { createFileRoute } from '@tanstack/react-router'
import * as v from 'valibot'
import { fileContentFor } from '~/server/api/batches/files'
import { endpoint } from '~/server/http/endpoint'
import { Readable } from 'node:stream'

export const Route = createFileRoute('/v1/files/$id/content')({
  server: {
    handlers: {
      GET: endpoint(
        {
          summary: "A file's content",
          description:
            "The bytes as uploaded, or a batch's output or error file: one `{id, custom_id, response: {status_code, request_id, body}, error}` per line.",
          auth: 'key',
          answer: v.string(),
          alternatives: [{ mediaType: 'application/jsonl', description: 'The file, as JSON lines' }],
          errors: [401, 404, 410, 429],
        },
        async ({ caller, params }) => {
          const { body, fileName } = await fileContentFor(caller, params.id)
          return new Response(Readable.toWeb(Readable.from(body)) as ReadableStream, {
            headers: {
              'content-type': 'application/jsonl; charset=utf-8',
              'content-disposition': `attachment; filename="${fileName.replace(/["\\\r\n]/g, '_')}"`,
              'cache-control': 'private, no-store',
            },
          })
        },
      ),
    },
  },
})
