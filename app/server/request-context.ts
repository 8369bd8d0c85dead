import { AsyncLocalStorage } from 'node:async_hooks'
import type { ServerEnv } from './env'

/**
 * What one request carries through every call it makes, set once by the request scope (app/middleware/
 * request-scope.ts) and never written after: the environment read once at its start (so the many
 * `serverEnv()` calls of a request cost a lookup), and its id, method and path, which every log line of the
 * request names (the answer returns the id as `X-Request-Id`). Only the foundation and the HTTP edge read
 * it: the edge puts the id into the Caller, and operations and the domain take what they need as arguments
 * (lint/layers.js refuses their imports of this file). AsyncLocalStorage exists on Node and on the edge
 * runtimes Start supports (Start keeps its own request context the same way).
 */
export interface RequestContext {
  readonly env: ServerEnv
  readonly requestId: string
  readonly method: string
  readonly path: string
}

const storage = new AsyncLocalStorage<RequestContext>()

export function currentRequest(): RequestContext | undefined {
  return storage.getStore()
}

/** Runs `run` in the request's scope; the scope is frozen, so nothing later can write to it. */
export function runInRequest<T>(context: RequestContext, run: () => T): T {
  return storage.run(Object.freeze({ ...context }), run)
}
