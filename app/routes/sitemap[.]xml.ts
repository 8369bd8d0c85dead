import { createFileRoute } from '@tanstack/react-router'
import { publicPaths } from '~/lib/public-paths'
import { interfaceLocales, localizePath, sourceLocale } from '~/lib/locale'
import { serverEnv } from '~/server/env'

const escapeXml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')

/** Every public page in every interface locale, each with its alternates (hreflang) and x-default. */
export const Route = createFileRoute('/sitemap.xml')({
  server: {
    handlers: {
      GET: () => {
        const base = serverEnv().PUBLIC_BASE_URL
        const url = (path: string) => escapeXml(new URL(path, base).toString())
        const entries = publicPaths().flatMap((path) => {
          const alternates = [
            ...interfaceLocales.map(
              (l) => `<xhtml:link rel="alternate" hreflang="${l}" href="${url(localizePath(path, l))}"/>`,
            ),
            `<xhtml:link rel="alternate" hreflang="x-default" href="${url(localizePath(path, sourceLocale))}"/>`,
          ].join('')
          return interfaceLocales.map(
            (locale) => `<url><loc>${url(localizePath(path, locale))}</loc>${alternates}</url>`,
          )
        })
        const body = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">\n${entries.join('\n')}\n</urlset>\n`
        return new Response(body, {
          headers: { 'content-type': 'application/xml; charset=utf-8', 'cache-control': 'public, max-age=3600' },
        })
      },
    },
  },
})
