import { createMiddleware } from '@tanstack/react-start'
import { withDeferredRuntime } from '~/server/http/live-deferral'
import { isPrerendering } from '~/server/http/prerendering'
import { isApiPath } from '~/server/http/security'

/**
 * A page rendered live starts its client runtime after the first paint (app/server/http/live-deferral.ts),
 * under the nonce the page policy gave this request. Inside the compression, which then encodes the
 * rewritten page; the prerenderer's pages pass as rendered (the build defers them its own way).
 */
export const liveDeferral = createMiddleware().server(({ pathname, context, next }) => {
  // Passed on as it is (not awaited here): Start adds an abort listener to the request's signal for each
  // middleware still waiting on the next, and Node warns on every request past ten.
  // Not under Vite's dev server: its SSR transform rewrites the loader's `import()`, whose text goes into the
  // page (every page there failed to start with `__vite_ssr_dynamic_import__ is not defined`).
  if (import.meta.env?.MODE === 'development' || isApiPath(pathname) || isPrerendering()) return next()
  const nonce = (context as { nonce?: string } | undefined)?.nonce
  return (async () => {
    const result = await next()
    if (nonce) result.response = await withDeferredRuntime(result.response, nonce, pathname)
    return result
  })()
})
