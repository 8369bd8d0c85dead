import { createCsrfMiddleware, createMiddleware, createStart } from '@tanstack/react-start'
import type { ServerEnv } from '../app.config'
import { compressed } from './server/http/compress'
import { PRERENDER_NONCE, prerenderedPage } from './server/http/prerendered'
import { withRequestEnv } from './server/http/request-env'
import { API_CONTENT_SECURITY_POLICY, applyCors, applySecurityHeaders, contentSecurityPolicy, corsPreflight, createNonce, csrfRefusal, isApiPath } from './server/http/security'
import { startOutboxWorker } from './server/providers/email'

/** Start's own defence for server functions (it is no longer added by default once this file exists). */
const serverFnCsrf = createCsrfMiddleware({ filter: (ctx) => ctx.handlerType === 'serverFn' })

/** The build's prerenderer renders with a fixed nonce that postbuild replaces by script hashes. */
let isPrerendering: boolean | undefined
const prerendering = () => (isPrerendering ??= globalThis.process?.env?.TSS_PRERENDERING === 'true')

/**
 * Every request: CORS preflights and cross-site writes are answered here; a prerendered page is served
 * as built; any other page runs with a fresh CSP nonce in the request context (app/router.tsx hands it
 * to `ssr.nonce`), while API answers get a fixed policy that allows nothing. Every answer leaves with
 * the security headers and, where it helps, gzip. The environment is read once, at the start.
 */
export const securityMiddleware = createMiddleware().server(({ request, pathname, next }) =>
  withRequestEnv(async (env) => {
    if (!prerendering()) startOutboxWorker()
    const early = corsPreflight(request, env) ?? csrfRefusal(request, env)
    if (early) return withHeaders(early, request, env, API_CONTENT_SECURITY_POLICY)
    if (isApiPath(pathname)) {
      const result = await next()
      result.response = compressed(request, withHeaders(result.response, request, env, API_CONTENT_SECURITY_POLICY))
      return result
    }
    const prerendered = prerendering() ? undefined : await prerenderedPage(request, env)
    if (prerendered) return withHeaders(prerendered.response, request, env, prerendered.policy)
    const nonce = prerendering() ? PRERENDER_NONCE : createNonce()
    const result = await next({ context: { nonce } })
    const policy = contentSecurityPolicy({ nonce }, env, import.meta.env?.MODE === 'development')
    result.response = compressed(request, withHeaders(result.response, request, env, policy))
    return result
  }),
)

function withHeaders(response: Response, request: Request, env: ServerEnv, csp: string): Response {
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
