import { catalogLocales, interfaceLocales, localeAliases, sourceLocale, type CatalogLocale, type Locale } from '#config'

const byLowerCase = new Map<string, Locale>([
  ...interfaceLocales.map((l) => [l.toLowerCase(), l] as const),
  ...Object.entries(localeAliases).map(([alias, l]) => [alias.toLowerCase(), l] as const),
])

/** A URL segment as an interface locale (`de`, `zh-CN`, `en` → en-US), or undefined. */
export function resolveLocale(segment: string | undefined | null): Locale | undefined {
  return segment ? byLowerCase.get(segment.toLowerCase()) : undefined
}

export function isCatalogLocale(value: string): value is CatalogLocale {
  return (catalogLocales as readonly string[]).includes(value)
}

/** The locale a pathname names in its first segment, if any. */
export function localeFromPathname(pathname: string): Locale | undefined {
  return resolveLocale(pathname.split('/')[1])
}

/**
 * The pathname without its locale prefix ("/de/models" → "/models") nor trailing slash: an index route's
 * match ends in one ("/models/"), and that URL redirects, so canonical links must not carry it.
 */
export function stripLocale(pathname: string): string {
  const [, first, ...rest] = pathname.split('/')
  const stripped = resolveLocale(first) ? `/${rest.join('/')}` : pathname
  return stripped.replace(/\/+$/, '') || '/'
}

/** The route param for a locale: the default locale has no prefix. */
export function localeParam(locale: Locale): string | undefined {
  return locale === sourceLocale ? undefined : locale
}

/** A path in the given locale ("/models", "de" → "/de/models"). */
export function localizePath(path: string, locale: Locale): string {
  const bare = stripLocale(path)
  const param = localeParam(locale)
  if (!param) return bare
  return bare === '/' ? `/${param}` : `/${param}${bare}`
}

export { sourceLocale, interfaceLocales, type Locale }
