import { createCsrfMiddleware, createMiddleware, createStart } from '@tanstack/react-start'
import { serverEnv, type ServerEnv } from '~/server/env'
import { endpointMethods } from './endpoint-methods'
import { oversizedBodyAnswer } from './server/http/body-limit'
import { compressed } from './server/http/compress'
import { routeToNode } from './server/http/node-backend'
import { unknownEndpoint, wrongMethod } from './server/http/methods'
import { PRERENDER_NONCE, prerenderedPage } from './server/http/prerendered'
import { requestIdOf } from './server/http/request-id'
import {
  API_CONTENT_SECURITY_POLICY,
  applyCors,
  applySecurityHeaders,
  contentSecurityPolicy,
  corsPreflight,
  createNonce,
  csrfRefusal,
  isApiPath,
} from './server/http/security'
import { guardServerFnCall, runServerFn } from './server/http/server-fn-errors'
import { startBackgroundWork } from './server/api/background'
import { log } from './server/log'
import { isStopping } from './server/lifecycle'
import { runInRequest } from './server/request-context'

/** Start's own defence for server functions (it is no longer added by default once this file exists). */
const serverFnCsrf = createCsrfMiddleware({ filter: (ctx) => ctx.handlerType === 'serverFn' })

/** The build's prerenderer renders with a fixed nonce that build/prerendered-pages.ts replaces by script hashes. */
let isPrerendering: boolean | undefined
const prerendering = () => (isPrerendering ??= globalThis.process?.env?.TSS_PRERENDERING === 'true')

/**
 * Every request: CORS preflights and cross-site writes are answered here; in the edge build, what needs Node
 * is handed to a Node instance (app/server/http/node-backend.edge.ts); a prerendered page is served
 * as built; any other page runs with a fresh CSP nonce in the request context (app/router.tsx hands it
 * to `ssr.nonce`), while API answers get a fixed policy that allows nothing. The context also carries the
 * public origin for canonical links and the API base URL for code samples and demo curls
 * (app/routes/__root.tsx), so no page code imports the server's environment; API paths get them too, since
 * an unknown one renders the not-found page. Every answer leaves with the security headers, its request id
 * and, where it helps, gzip. The environment is read once, at the start.
 */
export const securityMiddleware = createMiddleware().server(({ request, pathname, next }) => {
  const env = serverEnv()
  const requestId = requestIdOf(request)
  const context = { env, requestId, method: request.method, path: pathname }
  const baseUrl = env.PUBLIC_BASE_URL
  const apiBaseUrl = env.PUBLIC_API_BASE_URL
  const started = performance.now()
  // One line per request, with its status and the time to its answer's headers (what a balancer waits for).
  const withHeaders = (response: Response, csp: string) => {
    const answered = answerHeaders(response, request, env, csp, requestId)
    log('info', 'request', { status: answered.status, ms: Math.round(performance.now() - started) })
    return answered
  }
  return runInRequest(context, async () => {
    if (!prerendering()) startBackgroundWork()
    const early = corsPreflight(request, env) ?? csrfRefusal(request, env)
    if (early) return withHeaders(asServerFnRefusal(early, pathname), API_CONTENT_SECURITY_POLICY)
    // Edge build only: what needs Node goes to a Node instance, which checks limits and methods itself.
    const routed = await routeToNode(request, pathname, env, requestId)
    if (routed) return withHeaders(routed, API_CONTENT_SECURITY_POLICY)
    const oversized = await oversizedBodyAnswer(request, pathname)
    if (oversized) return withHeaders(asServerFnRefusal(oversized, pathname), API_CONTENT_SECURITY_POLICY)
    const refusal = methodRefusal(request.method, pathname)
    if (refusal) return withHeaders(refusal, API_CONTENT_SECURITY_POLICY)
    if (isApiPath(pathname)) {
      const result = await guardServerFnCall(pathname, () => next({ context: { baseUrl, apiBaseUrl } }))
      if (result instanceof Response)
        return withHeaders(asServerFnRefusal(result, pathname), API_CONTENT_SECURITY_POLICY)
      result.response = compressed(request, withHeaders(result.response, API_CONTENT_SECURITY_POLICY))
      return result
    }
    const prerendered = prerendering() ? undefined : await prerenderedPage(request, env)
    if (prerendered) return withHeaders(prerendered.response, prerendered.policy)
    const nonce = prerendering() ? PRERENDER_NONCE : createNonce()
    const result = await next({ context: { nonce, baseUrl, apiBaseUrl } })
    const policy = contentSecurityPolicy({ nonce }, env, import.meta.env?.MODE === 'development')
    result.response = compressed(request, withHeaders(result.response, policy))
    return result
  })
})

/**
 * An endpoint asked with a method it has no handler for answers 405 with `Allow` before anything else
 * runs (Start would render the app shell), and an API path no endpoint serves answers a JSON 404.
 */
function methodRefusal(method: string, pathname: string): Response | undefined {
  const methods = endpointMethods(pathname)
  if (methods) return wrongMethod(method, methods)
  if (isApiPath(pathname) && !pathname.startsWith('/_serverFn/')) return unknownEndpoint()
  return undefined
}

/**
 * A server function's caller reads an answer without Start's serialisation as data; marked as thrown,
 * the refusal reaches it as the error it is (the dashboard shows "403: Cross-site request refused").
 */
function asServerFnRefusal(response: Response, pathname: string): Response {
  if (pathname.startsWith('/_serverFn/') && response.status >= 400) response.headers.set('x-tss-raw', 'thrown')
  return response
}

function answerHeaders(response: Response, request: Request, env: ServerEnv, csp: string, requestId: string): Response {
  const apply = (headers: Headers) => {
    applySecurityHeaders(headers, csp)
    applyCors(request, headers, env)
    headers.set('X-Request-Id', requestId)
    if (isStopping()) headers.set('Connection', 'close')
  }
  try {
    apply(response.headers)
    return response
  } catch {
    // Some responses (redirects, fetched ones) have immutable headers: answer with a copy.
    const copy = new Response(response.body, response)
    apply(copy.headers)
    return copy
  }
}

/** Around every server function: its failures answered as the REST routes answer them (see runServerFn). */
const serverFnErrors = createMiddleware({ type: 'function' }).server(({ next }) => runServerFn(next))

export const startInstance = createStart(() => ({
  requestMiddleware: [securityMiddleware, serverFnCsrf],
  functionMiddleware: [serverFnErrors],
}))
