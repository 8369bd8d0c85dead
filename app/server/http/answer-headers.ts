import { serverEnv } from '../env'
import { isStopping } from '../lifecycle'
import { currentRequest } from '../request-context'
import { API_CONTENT_SECURITY_POLICY, applyCors, applySecurityHeaders, isApiPath } from './security'

/**
 * The headers every answer leaves with: the security headers (reliability test 26), CORS, the request id
 * and, while the server drains, `Connection: close`. The content security policy is the one that allows
 * nothing, unless the answer is a page that brought its own (app/middleware/page-policy.ts).
 */
export function withAnswerHeaders(response: Response, request: Request, pathname: string): Response {
  const env = currentRequest()?.env ?? serverEnv()
  const requestId = currentRequest()?.requestId
  const pagePolicy = isApiPath(pathname) ? null : response.headers.get('content-security-policy')
  return withHeaders(response, (headers) => {
    applySecurityHeaders(headers, pagePolicy ?? API_CONTENT_SECURITY_POLICY)
    applyCors(request, headers, env)
    if (requestId) headers.set('X-Request-Id', requestId)
    if (isStopping()) headers.set('Connection', 'close')
  })
}

/** Sets headers on an answer; some (redirects, fetched answers) have immutable headers: then on a copy. */
export function withHeaders(response: Response, apply: (headers: Headers) => void): Response {
  try {
    apply(response.headers)
    return response
  } catch {
    const copy = new Response(response.body, response)
    apply(copy.headers)
    return copy
  }
}
