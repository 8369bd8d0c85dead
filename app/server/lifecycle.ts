import { errorFields, log } from './log'

/**
 * What must run when the server stops. Nitro's plugin (app/server/shutdown.ts) and the app are built
 * into separate bundles, each with its own copy of this module, so the list lives on a global symbol
 * that both copies share.
 */
type Closer = () => Promise<void> | void

/** Work (drains, workers) finishes first; connections it may still need close after it. */
export type ShutdownPhase = 'work' | 'connections'

const registry = Symbol.for('search-foundation-site.shutdown')
const closers = ((globalThis as Record<symbol, unknown>)[registry] ??= new Map<Closer, ShutdownPhase>()) as Map<
  Closer,
  ShutdownPhase
>

/** Registers `close` to run at shutdown (once, however often it is registered). */
export function onShutdown(close: Closer, phase: ShutdownPhase = 'work'): void {
  closers.set(close, phase)
}

/** Runs every registered closer once, phase by phase, logging failures instead of stopping at them. */
export async function shutdown(): Promise<void> {
  const pending = [...closers]
  closers.clear()
  for (const phase of ['work', 'connections'] satisfies ShutdownPhase[]) {
    await Promise.all(
      pending
        .filter(([, p]) => p === phase)
        .map(async ([close]) => {
          try {
            await close()
          } catch (error) {
            log('error', 'shutdown step failed', { error: errorFields(error) })
          }
        }),
    )
  }
}

const stopping = Symbol.for('search-foundation-site.stopping')

/** Called on SIGTERM/SIGINT, before the server drains: from then on every answer closes its connection. */
export function markStopping(): void {
  ;(globalThis as Record<symbol, unknown>)[stopping] = true
}

/**
 * Whether the server is draining. Node keeps serving a keep-alive connection after `server.close()` for
 * as long as its client sends, so answers say `Connection: close`, and readiness fails so a load balancer
 * sends no more.
 */
export function isStopping(): boolean {
  return (globalThis as Record<symbol, unknown>)[stopping] === true
}
