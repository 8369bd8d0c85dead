import { AsyncLocalStorage } from 'node:async_hooks'
import { waitUntil } from 'cloudflare:workers'
import type * as NodeScope from './connection-scope'

/**
 * Workers refuse I/O on a socket another request opened ("Cannot perform I/O on behalf of a different
 * request"), so a pool or client shared by the isolate fails from its second request on: each request opens
 * its own connections (lazily: a page that never queries opens none) and closes them once its answer has
 * been sent.
 */
interface Scope {
  held: Map<string, unknown>
  closers: Map<string, () => Promise<void>>
}

const requests = new AsyncLocalStorage<Scope>()

export const connectionScope: typeof NodeScope.connectionScope = {
  get: <T>(name: string) => requests.getStore()?.held.get(name) as T | undefined,
  set<T>(name: string, value: T | undefined, close?: (value: T) => Promise<void>) {
    const scope = requests.getStore()
    if (!scope) throw new Error('the edge build opens connections only inside a request')
    if (value === undefined) {
      scope.held.delete(name)
      return
    }
    scope.held.set(name, value)
    if (close) scope.closers.set(name, () => close(value).catch(() => {}))
  },
  perRequest: true,
}

export const withConnectionScope: typeof NodeScope.withConnectionScope = async (run) => {
  const scope: Scope = { held: new Map(), closers: new Map() }
  const response = await requests.run(scope, run)
  const close = async () => void (await Promise.all([...scope.closers.values()].map((closer) => closer())))
  if (!response.body) {
    if (scope.closers.size) waitUntil(close())
    return response
  }
  // A streamed answer may still use its connections while it is sent: close them when the body is done (or
  // abandoned). Connections are opened lazily, so one the stream opens late is in `closers` by then.
  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>()
  waitUntil(
    response.body
      .pipeTo(writable)
      .catch(() => {})
      .then(close),
  )
  return new Response(readable, response)
}
