import { AsyncLocalStorage } from 'node:async_hooks'
import type { ServerEnv } from './env'

/**
 * What one request carries through every call it makes: the environment read once at its start (so
 * the many `serverEnv()` calls of a request cost a lookup), and its id, which every log line of the
 * request names and the answer returns as `X-Request-Id`. AsyncLocalStorage exists on Node and on the
 * edge runtimes Start supports (Start keeps its own request context the same way).
 */
export interface RequestContext {
  env: ServerEnv
  requestId: string
  method: string
  path: string
  /** Who the request acts as, once known (`user:<uid>`, `key:<prefix…last4>`): the audit log names it. */
  actor?: string
  /** The client's address as the API layer reads it (TRUST_PROXY), for the audit log. */
  clientAddress?: string
}

const storage = new AsyncLocalStorage<RequestContext>()

export function currentRequest(): RequestContext | undefined {
  return storage.getStore()
}

export function runInRequest<T>(context: RequestContext, run: () => T): T {
  return storage.run(context, run)
}
