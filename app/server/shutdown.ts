import { definePlugin } from 'nitro'
import { markStopping, shutdown } from './lifecycle'

/** DRAIN_DELAY_MS, checked with the rest of the environment at start-up (env.ts); here read as it is. */
function drainDelayMs(): number {
  const ms = Number(globalThis.process?.env?.DRAIN_DELAY_MS ?? 0)
  return Number.isInteger(ms) && ms > 0 ? ms : 0
}

/**
 * On SIGTERM/SIGINT the server (srvx) stops accepting and waits for the requests under way; from the
 * same moment `markStopping` makes every answer close its keep-alive connection and readiness (/healthz)
 * answer 503. With DRAIN_DELAY_MS set, SIGTERM (what an orchestrator sends; SIGINT is someone at a
 * terminal) first holds the listener open that long, serving as before, so a balancer polling readiness
 * sees the 503 and takes this instance out before it refuses connections; then the close goes on as
 * usual. Nitro's `close` hook runs once the server has stopped: every metering debit was awaited by its
 * request, so none is pending; what is left is the outbox drain under way and the database pool, whose
 * open sockets would otherwise keep the process alive. Both register themselves with `onShutdown`.
 */
export default definePlugin((nitroApp) => {
  nitroApp.hooks.hook('close', shutdown)
  const process = globalThis.process
  if (!process?.on) return
  type Listener = (signal: NodeJS.Signals) => void
  const signals = ['SIGTERM', 'SIGINT'] as const
  /** srvx's own listeners (its graceful close), taken over so that they run after the drain delay. */
  const closers = new Map<NodeJS.Signals, Listener[]>()
  let signalled = false
  const exitOn = (signal: NodeJS.Signals) => {
    process.off(signal, onSignal)
    process.kill(process.pid, signal)
  }
  const onSignal = (signal: NodeJS.Signals) => {
    if (signalled) return
    signalled = true
    markStopping()
    const close = () => {
      const own = closers.get(signal) ?? []
      // With graceful shutdown off (CI, TEST) nothing else listens: keep the signal's default, exiting.
      if (own.length === 0) return exitOn(signal)
      for (const closer of own) closer(signal)
    }
    const delay = signal === 'SIGTERM' ? drainDelayMs() : 0
    if (delay > 0) setTimeout(close, delay)
    else close()
  }
  for (const signal of signals) process.on(signal, onSignal)
  // The server registers its listeners as it starts, right after the plugins ran: take them over then.
  setImmediate(() => {
    for (const signal of signals) {
      const others = process.listeners(signal).filter((listener) => listener !== onSignal) as Listener[]
      for (const listener of others) process.off(signal, listener)
      closers.set(signal, others)
    }
  })
})
