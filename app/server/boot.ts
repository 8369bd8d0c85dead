import { definePlugin } from 'nitro'
import { loadServerEntry } from '#app/server-entry'
import { errorFields, log } from './log'

/**
 * Loads the app's server entry (app/server.ts) as the server starts, so a bad setting stops start-up and the
 * background work (app/server/api/background.ts) resumes interrupted jobs before any visitor arrives; it
 * stops with the server (app/server/shutdown.ts). Not while the build prerenders.
 */
export default definePlugin(() => {
  if (globalThis.process?.env?.TSS_PRERENDERING === 'true') return
  loadServerEntry().catch((error: unknown) =>
    log('error', 'the server entry did not load', { error: errorFields(error) }),
  )
})
