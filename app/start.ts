import { createCsrfMiddleware, createMiddleware, createStart } from '@tanstack/react-start'
import { serverEnv } from '../app.config'
import { compressed } from './server/http/compress'
import { PRERENDER_NONCE, prerenderedPolicy, prerenderedResponse } from './server/http/prerendered'
import { applyCors, applySecurityHeaders, contentSecurityPolicy, corsPreflight, createNonce, csrfRefusal, type ScriptAllowance } from './server/http/security'
import { startOutboxWorker } from './server/providers/email'

/** Start's own defence for server functions (it is no longer added by default once this file exists). */
const serverFnCsrf = createCsrfMiddleware({ filter: (ctx) => ctx.handlerType === 'serverFn' })

/** The build's prerenderer renders with a fixed nonce that postbuild replaces by script hashes. */
const prerendering = () => globalThis.process?.env?.TSS_PRERENDERING === 'true'

/**
 * Every request: CORS preflights and cross-site writes are answered here; a prerendered page is served
 * as built; everything else runs with a fresh CSP nonce in the request context (app/router.tsx hands it
 * to `ssr.nonce`). Every answer leaves with the security headers and, where it helps, gzip.
 */
export const securityMiddleware = createMiddleware().server(async ({ request, next }) => {
  const env = serverEnv()
  if (!prerendering()) startOutboxWorker()
  const early = corsPreflight(request, env) ?? csrfRefusal(request, env)
  if (early) return withHeaders(early, request, { nonce: createNonce() })
  const prerendered = prerendering() ? undefined : await prerenderedResponse(request, env)
  if (prerendered) return withHeaders(prerendered, request, { hashes: [] }, await prerenderedPolicy(request, env))
  const nonce = prerendering() ? PRERENDER_NONCE : createNonce()
  const result = await next({ context: { nonce } })
  result.response = compressed(request, withHeaders(result.response, request, { nonce }))
  return result
})

function withHeaders(response: Response, request: Request, allow: ScriptAllowance, policy?: string): Response {
  const env = serverEnv()
  const csp = policy ?? contentSecurityPolicy(allow, env, import.meta.env?.MODE === 'development')
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
