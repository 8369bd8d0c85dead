import { createRouter } from '@tanstack/react-router'
import { createIsomorphicFn, getGlobalStartContext } from '@tanstack/react-start'
import { routeTree } from './routeTree.gen'

/** The per-request CSP nonce the page-policy middleware (app/middleware/page-policy.ts) put in the request context. */
const requestNonce = createIsomorphicFn()
  .server(() => {
    try {
      return (getGlobalStartContext() as { nonce?: string } | undefined)?.nonce
    } catch {
      return undefined
    }
  })
  .client(() => undefined)

export function getRouter() {
  // The first render hydrates a page the browser has already placed: a prerendered page starts its runtime
  // when the visitor begins to scroll or a demo comes into view, an app screen rendered live once the browser is
  // idle after its first paint (app/server/http/deferred-runtime.ts), and the inline restoration script has
  // placed a reload.
  // Restoring there would throw the visitor back to the top.
  let hydrating = true
  const restoreScroll = () => {
    if (!hydrating) return true
    hydrating = false
    return false
  }
  return createRouter({
    routeTree,
    scrollRestoration: restoreScroll,
    defaultPreload: 'intent',
    defaultStructuralSharing: true,
    ssr: { nonce: requestNonce() },
  })
}

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof getRouter>
  }
}
