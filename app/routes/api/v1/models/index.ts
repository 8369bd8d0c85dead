import { createFileRoute } from '@tanstack/react-router'
import { listModels } from '~/server/domain/catalogue'
import { handle, jsonResponse } from '~/server/http/errors'
import { parseQuery } from '~/server/http/input'
import { modelsQuery } from '~/server/http/schemas'

/** The model catalogue, optionally filtered by repeated `tag` parameters. */
export const Route = createFileRoute('/api/v1/models/')({
  server: {
    handlers: {
      GET: handle(async ({ request }: { request: Request }) => {
        const { tag } = parseQuery(request, modelsQuery, ['tag'])
        return jsonResponse(await listModels(tag), { headers: { 'cache-control': 'public, max-age=300' } })
      }),
    },
  },
})
