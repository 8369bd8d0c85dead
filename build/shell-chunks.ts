/**
 * Where the client's shared modules go. The site's shared shell (config, lib, components, content that two or
 * more chunks use) goes into one chunk, `site`, that every page loads: left to the default it came as ~40 small
 * chunks whose import glue and separate compression cost 3–5 KB gzip of first-load JS (BENCHMARKS.md). A
 * shell module that only the live screens reach (the dashboard, sign-in, the checkout sandbox: their tables,
 * dialogs, forms) goes into `app-shell` instead, so splitting those screens into chunks of their own (one per
 * dashboard tab) never moves their parts into every marketing page's download.
 */
export const sharedShell =
  /[\\/](app[\\/](lib(?![\\/]event-stream)|components(?![\\/]site[\\/]app-providers))|content)[\\/]|[\\/]app\.config\.ts$/

/**
 * Where the live screens start: their routes' components, which the router splits from the route tree and
 * fetches with the page (`?tsr-split=`). The route files themselves are in every page's route tree.
 */
const liveRoute = /[\\/]routes[\\/]\{-\$locale\}[\\/](api-dashboard|sign-in|sandbox-checkout)[^?]*\?tsr-split=/

/**
 * The live screens' own code. A module here that is fetched on demand (a dashboard tab) is fetched by a live
 * screen, whoever names it: a route's loader only asks for it on the way to that screen. Not the captcha and the
 * trial-key call, which the demos and the contact form use too.
 */
const liveFeature =
  /[\\/]app[\\/]features[\\/](dashboard(?![\\/](captcha[\\/]|key[\\/]issue-trial-key))|auth|sandbox-checkout)[\\/]/

interface ModuleGraph {
  getModuleInfo(id: string): { importers: readonly string[]; dynamicImporters: readonly string[] } | null
}

/**
 * The two groups, `site` first, with what its modules depend on (as before). `app-shell` takes its own modules
 * only: taking their dependencies too, it took packages the page's entry shares with them, and every page then
 * imported `app-shell`.
 */
export const shellChunkGroups = [
  { name: shellChunk('site'), debugName: 'site', test: sharedShell, minShareCount: 2, priority: 2 },
  {
    name: shellChunk('app-shell'),
    debugName: 'app-shell',
    test: sharedShell,
    minShareCount: 2,
    priority: 1,
    includeDependenciesRecursively: false,
  },
]

function shellChunk(name: 'site' | 'app-shell') {
  return (id: string, graph: ModuleGraph): string | null => {
    let seen = walks.get(graph)
    if (!seen) walks.set(graph, (seen = new Map()))
    const liveOnly = onlyFromLiveScreens(id, graph, seen)
    return (name === 'app-shell') === liveOnly ? name : null
  }
}

/** What one chunking pass learnt about each module, so each is walked once. */
const walks = new WeakMap<ModuleGraph, Map<string, boolean>>()

/** True when every way the page can come to load `id` starts at a live screen. */
function onlyFromLiveScreens(id: string, graph: ModuleGraph, seen: Map<string, boolean>): boolean {
  if (liveRoute.test(id)) return true
  const known = seen.get(id)
  if (known !== undefined) return known
  // Inside a cycle, assume the page shell needs it: the worst case is the old rule (`site`).
  seen.set(id, false)
  const info = graph.getModuleInfo(id)
  const importers = [...(info?.importers ?? []), ...(liveFeature.test(id) ? [] : (info?.dynamicImporters ?? []))]
  const reached = (info?.importers.length ?? 0) + (info?.dynamicImporters.length ?? 0) > 0
  const result = reached && importers.every((importer) => onlyFromLiveScreens(importer, graph, seen))
  seen.set(id, result)
  return result
}
