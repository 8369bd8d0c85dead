import { createFileRoute } from '@tanstack/react-router'
import { serverEnv } from '~/server/env'
import { handle, jsonResponse } from '~/server/http/errors'
import { openApiDocument } from '~/server/http/openapi'

/** OpenAPI 3.1 description of the dashboard API, generated from the routes' own valibot schemas. */
export const Route = createFileRoute('/api/v1/openapi.json')({
  server: { handlers: { GET: handle(() => jsonResponse(openApiDocument(serverEnv().PUBLIC_BASE_URL), { headers: { 'cache-control': 'public, max-age=300' } })) } },
})
