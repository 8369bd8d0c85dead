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

/** What a tree of bundles did with the patches: those applied, and every module bundled. */
interface Patched {
  applied: Set<SourcePatch>
  modules: string[]
}

/** Applies the patches to the modules they name, noting what it applied and what it bundled. */
function patching(patches: SourcePatch[], { applied, modules }: Patched): RolldownPlugin {
  return {
    name: 'lodestar:thread-patches',
    transform(code, id) {
      modules.push(id.replaceAll('\\', '/'))
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
  }
}

/** `?thread` imports inside a bundled module: bundled too, as strings within it (see `bundled`). */
function nestedSources(alias: Record<string, string>, patched: Patched): RolldownPlugin {
  return {
    name: 'lodestar:nested-thread-source',
    resolveId: {
      filter: { id: /\?thread$/ },
      async handler(source, importer, options) {
        const entry = await this.resolve(source.slice(0, -QUERY.length), importer, { ...options, skipSelf: true })
        if (!entry) this.error(`${source}: the bundled module's entry was not found`)
        return `${PREFIX}${entry.id}${SUFFIX}`
      },
    },
    load: {
      filter: { id: /^\0thread-source:/ },
      async handler(id) {
        const { code, watchFiles } = await bundled(id.slice(PREFIX.length, -SUFFIX.length), alias, patched)
        for (const file of watchFiles) this.addWatchFile(file)
        return `export default ${JSON.stringify(code)}`
      },
    },
  }
}

/**
 * One entry with everything it imports (but Node's built-ins) as one CommonJS script, the patches applied.
 * A `?thread` import within it is bundled on its own and kept as a string: code a converter evaluates only
 * when it first needs it (pdf.js, 1.7 MB, only for a PDF), rather than parsing it as every converter starts.
 */
async function bundled(
  entry: string,
  alias: Record<string, string>,
  patched: Patched,
): Promise<{ code: string; watchFiles: string[] }> {
  const bundle = await rolldown({
    input: entry,
    platform: 'node',
    resolve: { alias },
    plugins: [patching(threadPatches, patched), nestedSources(alias, patched)],
    // A CommonJS script has no import.meta (unpdf reads it where it can do without).
    transform: { define: { 'import.meta': '{}' } },
    logLevel: 'warn',
  })
  try {
    const { output } = await bundle.generate({ format: 'cjs', codeSplitting: false, minify: true })
    return { code: output[0].code, watchFiles: await bundle.watchFiles }
  } finally {
    await bundle.close()
  }
}

/**
 * `import source from './x.ts?thread'`: the module with everything it imports (but Node's built-ins) bundled
 * into one CommonJS script, as a string, for a converter process to run from stdin (`node -`). The same in the Node build,
 * in dev and in the tests, with no file to ship beside the server bundle; the third-party fixes of
 * ./thread-patches.ts are applied to what it bundles, and a patch that found no module of its package to patch
 * fails it.
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
        const patched: Patched = { applied: new Set(), modules: [] }
        const { code, watchFiles } = await bundled(id.slice(PREFIX.length, -SUFFIX.length), alias, patched)
        for (const file of watchFiles) this.addWatchFile(file)
        // A patch of a package the tree bundles, whose module it never met: the package has moved its code.
        const missed = threadPatches.filter(
          (patch) =>
            !patched.applied.has(patch) &&
            patched.modules.some((module) => module.includes(`/node_modules/${patch.package}/`)),
        )
        if (missed.length)
          this.error(`no module to patch for: ${missed.map((patch) => patch.why).join('; ')} (build/thread-patches.ts)`)
        return `export default ${JSON.stringify(code)}`
      },
    },
  }
}
