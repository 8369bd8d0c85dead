import { definePlugin } from 'nitro'
import { markStopping, shutdown } from './lifecycle'

/**
 * On SIGTERM/SIGINT the server (srvx) stops accepting and waits for the requests under way; from the
 * same moment `markStopping` makes every answer close its keep-alive connection, so clients that keep
 * sending move to another instance instead of holding this one open until it is forced to cut them
 * mid-request. Nitro's `close` hook runs once the server has stopped: every metering debit was awaited
 * by its request, so none is pending; what is left is the outbox drain under way and the database pool,
 * whose open sockets would otherwise keep the process alive. Both register themselves with `onShutdown`.
 */
export default definePlugin((nitroApp) => {
  nitroApp.hooks.hook('close', shutdown)
  const process = globalThis.process
  if (!process?.on) return
  const onSignal = (signal: NodeJS.Signals) => {
    markStopping()
    // With graceful shutdown off (CI, TEST) nothing else listens: keep the signal's default, exiting.
    if (process.listenerCount(signal) === 1) {
      process.off(signal, onSignal)
      process.kill(process.pid, signal)
    }
  }
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, onSignal)
})
