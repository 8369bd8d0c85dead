import { AsyncLocalStorage } from 'node:async_hooks'
import { waitUntil } from 'cloudflare:workers'
import type { Database } from './client'
import type * as NodeScope from './connection-scope'

/**
 * Workers refuse I/O on a socket that another request opened ("Cannot perform I/O on behalf of a different
 * request"), so a pool shared by the isolate fails on its second request: each request opens its own
 * connections (lazily: a page that never queries opens none) and closes them once its answer has been sent.
 */
const requests = new AsyncLocalStorage<{ database?: Promise<Database> }>()

export const connectionScope: typeof NodeScope.connectionScope = {
  get: () => requests.getStore()?.database,
  set(database) {
    const scope = requests.getStore()
    if (!scope) throw new Error('the edge build opens the database only inside a request')
    scope.database = database
  },
  perRequest: true,
}

export const withConnectionScope: typeof NodeScope.withConnectionScope = async (run) => {
  const scope: { database?: Promise<Database> } = {}
  const response = await requests.run(scope, run)
  const close = async () => {
    const database = await scope.database?.catch(() => undefined)
    await database?.close().catch(() => {})
  }
  if (!scope.database && !response.body) return response
  if (!response.body) {
    waitUntil(close())
    return response
  }
  // Streamed answers may still query while they are sent: close when the body is done (or abandoned).
  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>()
  waitUntil(
    response.body
      .pipeTo(writable)
      .catch(() => {})
      .then(close),
  )
  return new Response(readable, response)
}
