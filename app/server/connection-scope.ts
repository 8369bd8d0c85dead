/**
 * Where open connections (the database pool, the Redis client) live. On Node: one of each for the process,
 * closed at shutdown. The edge build swaps this file for `connection-scope.edge.ts`, which keeps them per
 * request and closes them when its answer has been sent (a Worker may not use a socket another request opened).
 */
const held = new Map<string, unknown>()

export const connectionScope = {
  get<T>(name: string): T | undefined {
    return held.get(name) as T | undefined
  },
  /** Keeps `value` under `name` (`undefined` forgets it); `close` is for the edge build's end of request. */
  set<T>(name: string, value: T | undefined, close?: (value: T) => Promise<void>): void {
    void close
    if (value === undefined) held.delete(name)
    else held.set(name, value)
  },
  perRequest: false,
}

/** Runs one request of the server entry (app/server.ts); on Node the process's connections serve every request. */
export function withConnectionScope(run: () => Promise<Response>): Promise<Response> {
  return run()
}
