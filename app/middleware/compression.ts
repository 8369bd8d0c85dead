import { createMiddleware } from '@tanstack/react-start'
import { compressed } from '~/server/http/compress'

/**
 * Gzips the answer when the client accepts it and it is worth it (compress.ts decides: small JSON, event
 * streams and precompressed prerendered pages pass as they are). Outside the answer headers, so the
 * compressed copy carries them.
 */
export const compression = createMiddleware().server(async ({ request, next }) => {
  const result = await next()
  result.response = compressed(request, result.response)
  return result
})
