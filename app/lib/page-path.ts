import type { RegisteredRouter } from '@tanstack/react-router'

/** The paths links may name, from the registered router's own types (no import of the generated tree). */
type ToPath = RegisteredRouter['routeTree']['types']['fileRouteTypes']['to']

type LocalePage<P> = P extends `/{-$locale}${infer Rest}` ? (Rest extends `${string}$${string}` ? never : P) : never

/**
 * A page whose only path param is the locale, as the route tree names it ('/{-$locale}/reader'). Menus
 * and content name their pages with it, so a link built from data is as checked as one written inline.
 */
export type PagePath = LocalePage<ToPath>
