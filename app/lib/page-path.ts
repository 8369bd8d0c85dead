import type { FileRouteTypes } from '~/routeTree.gen'

type LocalePage<P> = P extends `/{-$locale}${infer Rest}` ? (Rest extends `${string}$${string}` ? never : P) : never

/**
 * A page whose only path param is the locale, as the route tree names it ('/{-$locale}/reader'). Menus
 * and content name their pages with it, so a link built from data is as checked as one written inline.
 */
export type PagePath = LocalePage<FileRouteTypes['to']>
