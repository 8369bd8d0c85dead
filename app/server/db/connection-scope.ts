import type { Database } from './client'

/**
 * Where the open database lives. On Node: one pool for the process, closed at shutdown. The edge build
 * swaps this file for `connection-scope.edge.ts`, which keeps one per request (a Worker may not use a
 * socket opened by another request).
 */
let shared: Promise<Database> | undefined

export const connectionScope = {
  get: (): Promise<Database> | undefined => shared,
  set(database: Promise<Database> | undefined): void {
    shared = database
  },
  perRequest: false,
}

/** Runs one request of the server entry (app/server.ts); on Node the process's pool serves every request. */
export function withConnectionScope(run: () => Promise<Response>): Promise<Response> {
  return run()
}
