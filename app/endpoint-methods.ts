import { getRouter } from './router'

let router: ReturnType<typeof getRouter> | undefined

/**
 * The methods the endpoint at this path has server handlers for, read from the route tree so a new
 * endpoint needs nothing else; undefined for pages (routes with a component) and paths no route serves.
 */
export function endpointMethods(pathname: string): string[] | undefined {
  // One router just for matching; Start builds its own per request for rendering.
  router ??= getRouter()
  const [, params, route] = router.getMatchedRoutes(pathname)
  if (!route || params['**'] !== undefined || route.options.component) return undefined
  const handlers: unknown = route.options.server?.handlers
  if (!handlers) return undefined
  const table = typeof handlers === 'function' ? handlers({ createHandlers: (d: unknown) => d }) : handlers
  return Object.keys(table as object)
}
