import type { MessageDescriptor } from '@lingui/core'
import { brand, interfaceLocales, sourceLocale } from '#config'
import { i18nFor, loadedCatalog } from './i18n'
import { localizePath, stripLocale, type Locale } from './locale'

export interface RootData {
  locale: Locale
  baseUrl: string
  /** Where the search APIs are called (PUBLIC_API_BASE_URL), as code samples and demo curls show it. */
  apiBaseUrl: string
}

type Text = MessageDescriptor | string

export interface PageMeta {
  title: Text
  description: Text
  /** Open Graph type; articles carry dates. */
  type?: 'website' | 'article'
  image?: string
  jsonLd?: Record<string, unknown> | Record<string, unknown>[]
  noindex?: boolean
}

type MetaTag = { name?: string; content?: string; title?: string; property?: string }

interface HeadContext {
  matches: Array<{ loaderData?: unknown; pathname: string }>
  match: { pathname: string }
}

/** The root loader's data, available to every route's head(). */
export function rootData(matches: HeadContext['matches']): RootData {
  return matches[0]!.loaderData as RootData
}

/**
 * Title, description, canonical, hreflang for every interface locale plus x-default, Open Graph,
 * Twitter card and JSON-LD for one page in one locale, rendered into the server HTML.
 */
export function pageHead(ctx: HeadContext, page: PageMeta) {
  const { locale, baseUrl } = rootData(ctx.matches)
  const messages = loadedCatalog(locale)
  const i18n = i18nFor(locale, messages)
  const text = (value: Text) => (typeof value === 'string' ? value : i18n._(value))
  const title = `${text(page.title)} | ${brand.name}`
  const description = text(page.description)
  const path = stripLocale(ctx.match.pathname)
  const absolute = (p: string) => new URL(p, baseUrl).toString()
  const canonical = absolute(localizePath(path, locale))
  const image = absolute(page.image ?? '/images/og-default.png')
  return {
    meta: [
      { title },
      { name: 'description', content: description },
      ...(page.noindex ? [{ name: 'robots', content: 'noindex' }] : []),
      { property: 'og:title', content: title },
      { property: 'og:description', content: description },
      { property: 'og:type', content: page.type ?? 'website' },
      { property: 'og:url', content: canonical },
      { property: 'og:image', content: image },
      { property: 'og:site_name', content: brand.name },
      { property: 'og:locale', content: locale.replace('-', '_') },
      { name: 'twitter:card', content: 'summary_large_image' },
      { name: 'twitter:title', content: title },
      { name: 'twitter:description', content: description },
      { name: 'twitter:image', content: image },
      // TanStack renders `script:ld+json` entries as JSON-LD scripts; its meta type does not list the key.
      ...([page.jsonLd]
        .flat()
        .filter(Boolean)
        .map((data) => ({ 'script:ld+json': data })) as MetaTag[]),
    ],
    links: [
      { rel: 'canonical', href: canonical },
      ...interfaceLocales.map((l) => ({ rel: 'alternate', hrefLang: l, href: absolute(localizePath(path, l)) })),
      { rel: 'alternate', hrefLang: 'x-default', href: absolute(localizePath(path, sourceLocale)) },
    ],
  }
}
