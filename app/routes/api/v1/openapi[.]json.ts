import { createFileRoute } from '@tanstack/react-router'
import { serverEnv } from '~/server/env'
import { errorResponse, jsonResponse } from '~/server/http/errors'
import { openApiDocument } from '~/server/http/openapi'

/** OpenAPI 3.1 description of the dashboard API, generated from the specs and schemas of the routes themselves. */
export const Route = createFileRoute('/api/v1/openapi.json')({
  server: {
    handlers: {
      GET: async () => {
        try {
          const document = await openApiDocument(serverEnv().PUBLIC_BASE_URL)
          return jsonResponse(document, { headers: { 'cache-control': 'public, max-age=300' } })
        } catch (error) {
          return errorResponse(error)
        }
      },
    },
  },
})
