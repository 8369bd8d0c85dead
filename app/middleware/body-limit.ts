import { createMiddleware } from '@tanstack/react-start'
import { oversizedBodyAnswer } from '~/server/http/body-limit'

/**
 * Before any handler runs (server functions included): a buffered route's body over its limit is refused
 * with 413 (thrown, so a server function's caller gets it as an error), the rest of it never read.
 */
export const bodyLimit = createMiddleware().server(async ({ request, pathname, next }) => {
  const oversized = await oversizedBodyAnswer(request, pathname)
  if (oversized) throw oversized
  return next()
})
