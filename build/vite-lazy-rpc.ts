import type { Plugin } from 'vite'

const createClientRpc = /[\\/]@tanstack[\\/]start-client-core[\\/]dist[\\/]esm[\\/]client-rpc[\\/]createClientRpc\.js$/
const staticImport = 'import { serverFnFetcher } from "./serverFnFetcher.js";'
const call = 'return serverFnFetcher(url, args, startFetch ?? fetch);'
const lazyCall =
  'return import("./serverFnFetcher.js").then(({ serverFnFetcher }) => serverFnFetcher(url, args, startFetch ?? fetch));'

/**
 * TanStack Start's client registers every server function at hydration, and each registration imports the
 * fetcher that calls it, which brings seroval (~11 KB gzip) into every page's runtime. A marketing page never
 * calls one before the visitor navigates, so the fetcher is imported on the first call instead: the call was
 * already asynchronous, so callers see the same promise. If Start changes this file the build stops rather than
 * silently shipping the fetcher again.
 */
export function lazyServerFnFetcher(): Plugin {
  return {
    name: 'lodestar:lazy-server-fn-fetcher',
    applyToEnvironment: (environment) => environment.name === 'client',
    transform(code, id) {
      if (!createClientRpc.test(id.split('?')[0]!)) return
      if (!code.includes(staticImport) || !code.includes(call))
        this.error(`${id} no longer has the shape lodestar:lazy-server-fn-fetcher rewrites; update the plugin`)
      return { code: code.replace(staticImport, '').replace(call, lazyCall), map: null }
    },
  }
}
