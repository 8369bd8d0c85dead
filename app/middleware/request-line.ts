import { createMiddleware } from '@tanstack/react-start'
import { routePattern } from '~/server/http/route-pattern'
import { log } from '~/server/log'
import { recordRequest } from '~/server/metrics'

/**
 * One log line per request (with the request id, method, path and instance the log adds): its status and the
 * time to its answer's headers, what a balancer waits for. Refusals that later middleware throw count too.
 * The same figures feed /metrics, by route pattern.
 */
export const requestLine = createMiddleware().server(async ({ next, request }) => {
  const started = performance.now()
  const line = (status: number) => {
    const ms = performance.now() - started
    log('info', 'request', { status, ms: Math.round(ms) })
    recordRequest(request.method, routePattern(new URL(request.url).pathname, status), status, ms / 1000)
  }
  try {
    const result = await next()
    line(result.response.status)
    return result
  } catch (error) {
    if (error instanceof Response) line(error.status)
    throw error
  }
})
