import { definePlugin } from 'nitro'

/**
 * Sends the app one request as the server starts. The app's code (and with it the background work of
 * app/server/api/background.ts: the outbox and the bulk-job worker) loads on its first request; a
 * worker must not wait for a visitor to resume the jobs a restart interrupted. Not while prerendering.
 */
export default definePlugin((nitroApp) => {
  if (globalThis.process?.env?.TSS_PRERENDERING === 'true') return
  setTimeout(() => {
    void Promise.resolve(nitroApp.fetch(new Request('http://localhost/healthz/live'))).catch(() => undefined)
  }, 0)
})
