import type { NitroModule } from 'nitro/types'

/** The virtual module app/server/boot.ts imports: `loadServerEntry()` loads the app's server entry. */
export const SERVER_ENTRY_MODULE = '#app/server-entry'

/**
 * Nitro loads the app's server bundle (Start's server entry, app/server.ts) on the first request that needs
 * it. The boot plugin loads it as the server starts instead, through the same import Nitro's own loader
 * makes (read from Nitro's generated service table, so it is one module, not a second copy): the
 * environment is checked and the background work starts before any visitor arrives. In dev the entry
 * loads on the first request. A Nitro whose table no longer reads as expected fails the build, by name.
 */
export const serverEntryModule: NitroModule = {
  name: 'lodestar:server-entry',
  setup(nitro) {
    nitro.options.virtual[SERVER_ENTRY_MODULE] = async () => {
      if (nitro.options.dev) return 'export const loadServerEntry = async () => undefined'
      const services = nitro.options.virtual['#nitro/virtual/vite-services']
      const table = typeof services === 'function' ? await services() : services
      const entry = /\["ssr"\]:\s*lazyService\(\(\) => import\(("[^"]+")\)\)/.exec(table ?? '')?.[1]
      if (!entry)
        throw new Error(
          `${SERVER_ENTRY_MODULE}: Nitro's vite service table has no "ssr" entry import (build/nitro-server-entry.ts reads it)`,
        )
      return `export const loadServerEntry = () => import(${entry})`
    }
  },
}
