import type { Plugin } from 'vite'

/** The module the server imports for the map below: `'messages:de'` → `'/assets/messages-….js'`. */
const catalogChunksId = 'virtual:catalog-chunks'
const resolvedId = `\0${catalogChunksId}`
const catalogModule = /[\\/]locales[\\/]([^\\/]+)[\\/](messages|app)\.po$/

/** Filled by the client build, read by the server build and the prerendered pages' step after it. */
const chunks: Record<string, string> = {}

/** The client chunk of each locale's catalogs, once the client is built. */
export const catalogChunks = (): Readonly<Record<string, string>> => chunks

/**
 * A page's catalogs are chunks of their own, not part of its hydration data (app/lib/i18n.ts). The deferred
 * runtime's loader fetches them with the page's other modules (app/server/http/deferred-runtime.ts), so it must
 * know their hashed names: recorded here from the client build, and given to the server build as
 * `virtual:catalog-chunks`. Outside a build (dev, tests) the map is empty and the page fetches its catalogs when
 * its entry runs; a build whose server would get an empty map stops, as a rewrite that found nothing does.
 */
export function catalogChunkNames(): Plugin {
  let building = false
  return {
    name: 'lodestar:catalog-chunks',
    configResolved(config) {
      building = config.command === 'build'
    },
    resolveId: (source) => (source === catalogChunksId ? resolvedId : undefined),
    load(id) {
      if (id !== resolvedId) return
      if (building && this.environment.name !== 'client' && !Object.keys(chunks).length)
        throw new Error('[catalog-chunks] no catalog chunk recorded: the client must be built before the server')
      return `export default ${JSON.stringify(chunks)}`
    },
    generateBundle(_, bundle) {
      if (this.environment.name !== 'client') return
      for (const file of Object.values(bundle)) {
        const match = file.type === 'chunk' ? file.facadeModuleId?.match(catalogModule) : null
        if (match) chunks[`${match[2]}:${match[1]}`] = `/${file.fileName}`
      }
    },
  }
}
