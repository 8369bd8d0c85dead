import { AsyncLocalStorage } from 'node:async_hooks'
import { scopeServerEnvTo, serverEnv, type ServerEnv } from '../../../app.config'

/**
 * One read of the environment per request. The request middleware runs the request inside this scope,
 * and every `serverEnv()` call under it (handlers, rate limits, headers) gets that read back instead of
 * going over every variable again. AsyncLocalStorage exists on Node and on the edge runtimes Start
 * supports (Start keeps its own request context the same way).
 */
const current = new AsyncLocalStorage<ServerEnv>()
scopeServerEnvTo(() => current.getStore())

export function withRequestEnv<T>(run: (env: ServerEnv) => T): T {
  const env = serverEnv()
  return current.run(env, run, env)
}
