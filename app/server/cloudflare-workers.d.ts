/** The one export of the Workers runtime module the edge build uses (app/server/connection-scope.edge.ts). */
declare module 'cloudflare:workers' {
  /** Keeps the Worker alive for `promise` after its answer has gone. */
  export function waitUntil(promise: Promise<unknown>): void
}
