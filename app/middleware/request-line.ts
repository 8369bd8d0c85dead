import { createMiddleware } from '@tanstack/react-start'
import { log } from '~/server/log'

/**
 * One log line per request (with the request id, method, path and instance the log adds): its status and the
 * time to its answer's headers, what a balancer waits for. Refusals that later middleware throw count too.
 */
export const requestLine = createMiddleware().server(async ({ next }) => {
  const started = performance.now()
  const line = (status: number) => log('info', 'request', { status, ms: Math.round(performance.now() - started) })
  try {
    const result = await next()
    line(result.response.status)
    return result
  } catch (error) {
    if (error instanceof Response) line(error.status)
    throw error
  }
})
