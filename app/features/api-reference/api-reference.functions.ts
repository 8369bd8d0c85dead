import { createServerFn } from '@tanstack/react-start'
import { serverEnv } from '~/server/env'
import { openApiDocument } from '~/server/http/openapi'
import type { OpenApiDocument } from './openapi-types'

/** The same document /api/v1/openapi.json serves, so the reference page cannot describe a different API. */
export const fetchOpenApiDocument = createServerFn({ method: 'GET' }).handler(
  async () => openApiDocument(serverEnv().PUBLIC_BASE_URL) as unknown as OpenApiDocument,
)
