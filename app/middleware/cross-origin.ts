import { createMiddleware } from '@tanstack/react-start'
import { serverEnv } from '~/server/env'
import { corsPreflight, csrfRefusal } from '~/server/http/security'

/**
 * CORS preflights are answered here, and cross-site writes refused (security.ts has the rules). A refusal
 * is thrown: Start then marks it, for a server function's caller, as the error it is (the dashboard shows
 * "403: Cross-site request refused") rather than data.
 */
export const crossOrigin = createMiddleware().server(({ request, next }) => {
  const env = serverEnv()
  const preflight = corsPreflight(request, env)
  if (preflight && preflight.status >= 400) throw preflight
  if (preflight) return preflight
  const refusal = csrfRefusal(request, env)
  if (refusal) throw refusal
  return next()
})
