import { definePlugin } from 'nitro'
import { shutdown } from './lifecycle'

/**
 * Nitro's `close` hook runs once the server has stopped accepting and its in-flight requests are done
 * (SIGTERM/SIGINT). Every metering debit was awaited by its request, so none is pending here; what is
 * left is the outbox drain under way and the database pool, whose open sockets would otherwise keep
 * the process alive until the orchestrator kills it. Both register themselves with `onShutdown`.
 */
export default definePlugin((nitroApp) => {
  nitroApp.hooks.hook('close', shutdown)
})
