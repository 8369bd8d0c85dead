import { createCsrfMiddleware, createMiddleware, createStart } from '@tanstack/react-start'
import { serverEnv } from '../app.config'
import { applyCors, applySecurityHeaders, contentSecurityPolicy, corsPreflight, createNonce, csrfRefusal } from './server/http/security'
import { startOutboxWorker } from './server/providers/email'

/** Start's own defence for server functions (it is no longer added by default once this file exists). */
const serverFnCsrf = createCsrfMiddleware({ filter: (ctx) => ctx.handlerType === 'serverFn' })

/**
 * Every request: CORS preflights and cross-site writes are answered here; everything else runs with a
 * fresh CSP nonce in the request context (app/router.tsx hands it to `ssr.nonce`), and every answer leaves
 * with the security headers, the CSP naming the same nonce.
 */
export const securityMiddleware = createMiddleware().server(async ({ request, next }) => {
  const env = serverEnv()
  startOutboxWorker()
  const nonce = createNonce()
  const early = corsPreflight(request, env) ?? csrfRefusal(request, env)
  if (early) return withHeaders(early, request, nonce)
  const result = await next({ context: { nonce } })
  result.response = withHeaders(result.response, request, nonce)
  return result
})

function withHeaders(response: Response, request: Request, nonce: string): Response {
  const env = serverEnv()
  const csp = contentSecurityPolicy(nonce, env, import.meta.env?.MODE === 'development')
  try {
    applySecurityHeaders(response.headers, csp)
    applyCors(request, response.headers, env)
    return response
  } catch {
    // Some responses (redirects, fetched ones) have immutable headers: answer with a copy.
    const copy = new Response(response.body, response)
    applySecurityHeaders(copy.headers, csp)
    applyCors(request, copy.headers, env)
    return copy
  }
}

export const startInstance = createStart(() => ({ requestMiddleware: [securityMiddleware, serverFnCsrf] }))
