import { rolldown, type Plugin as RolldownPlugin } from 'rolldown'
import type { Plugin } from 'vite'
import { threadPatches, type SourcePatch } from './thread-patches.ts'

const QUERY = '?thread'
/**
 * The bundle's id: its entry's path, marked as virtual (`\0`) and ending in other than `.ts`, so that no
 * other plugin (Babel's transforms every `.ts`) works through megabytes of bundled code again.
 */
const PREFIX = '\0thread-source:'
const SUFFIX = ':bundled'

/** Applies the patches to the modules they name, and fails the bundle for any that found nothing to patch. */
function patching(patches: SourcePatch[]): RolldownPlugin {
  const applied = new Set<SourcePatch>()
  return {
    name: 'lodestar:thread-patches',
    transform(code, id) {
      const mine = patches.filter((patch) => patch.module.test(id))
      if (mine.length === 0) return null
      for (const patch of mine) {
        if (!code.includes(patch.find))
          this.error(`${id}: the code to patch (${patch.why}) is not there any more: see build/thread-patches.ts`)
        code = code.replace(patch.find, patch.replace)
        applied.add(patch)
      }
      return { code }
    },
    buildEnd(error) {
      if (error) return
      const missed = patches.filter((patch) => !applied.has(patch))
      if (missed.length)
        this.error(`no module to patch for: ${missed.map((patch) => patch.why).join('; ')} (build/thread-patches.ts)`)
    },
  }
}

/**
 * `import source from './x.ts?thread'`: the module with everything it imports (but Node's built-ins) bundled
 * into one CommonJS script, as a string, for a converter process to run from stdin (`node -`). The same in the Node build,
 * in dev and in the tests, with no file to ship beside the server bundle; the third-party fixes of
 * ./thread-patches.ts are applied to what it bundles.
 */
export function threadSource({ alias }: { alias: Record<string, string> }): Plugin {
  return {
    name: 'lodestar:thread-source',
    enforce: 'pre',
    // Filtered, so the hooks run for the thread imports only, not for every module of the build.
    resolveId: {
      filter: { id: /\?thread$/ },
      async handler(source, importer, options) {
        const entry = await this.resolve(source.slice(0, -QUERY.length), importer, { ...options, skipSelf: true })
        if (!entry) this.error(`${source}: the thread's entry module was not found`)
        return `${PREFIX}${entry.id}${SUFFIX}`
      },
    },
    load: {
      filter: { id: /^\0thread-source:/ },
      async handler(id) {
        const bundle = await rolldown({
          input: id.slice(PREFIX.length, -SUFFIX.length),
          platform: 'node',
          resolve: { alias },
          plugins: [patching(threadPatches)],
          logLevel: 'warn',
        })
        try {
          const { output } = await bundle.generate({ format: 'cjs', codeSplitting: false, minify: true })
          for (const file of await bundle.watchFiles) this.addWatchFile(file)
          return `export default ${JSON.stringify(output[0].code)}`
        } finally {
          await bundle.close()
        }
      },
    },
  }
}
