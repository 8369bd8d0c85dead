/// <reference types="vite/client" />
import { I18nProvider } from '@lingui/react'
import { createRootRoute, HeadContent, Outlet, ScriptOnce, Scripts, useMatches } from '@tanstack/react-router'
import { createIsomorphicFn, getGlobalStartContext } from '@tanstack/react-start'
import type * as React from 'react'
import { ClientGuards } from '~/components/site/client-guards'
import { NotFoundRedirect } from '~/components/site/not-found-redirect'
import { i18nFor, loadCatalog, useCatalog, type CatalogName } from '~/lib/i18n'
import { localeFromPathname } from '~/lib/locale'
import type { RootData } from '~/lib/seo'
import { themeScript, useThemeSync } from '~/lib/theme'
import appCss from '~/styles.css?url'
import interLatin from '@fontsource-variable/inter/files/inter-latin-wght-normal.woff2?url'
import { sourceLocale } from '#config'

declare global {
  interface Window {
    __BASE_URL__?: string
    __API_BASE_URL__?: string
  }
}

type PublicUrls = Pick<RootData, 'baseUrl' | 'apiBaseUrl'>

/**
 * The public origin for canonical links and the API's base URL for code samples and demo curls: on the
 * server the request middleware (app/start.ts) put them in the request context, so this file need not
 * import the server's environment; handed to the browser once.
 */
const publicUrls = createIsomorphicFn()
  .server((): PublicUrls => {
    const context = getGlobalStartContext() as Partial<PublicUrls> | undefined
    if (!context?.baseUrl || !context.apiBaseUrl)
      throw new Error('No public base URL in the request context: is the request middleware in app/start.ts installed?')
    return { baseUrl: context.baseUrl, apiBaseUrl: context.apiBaseUrl }
  })
  .client((): PublicUrls => {
    const baseUrl = window.__BASE_URL__ ?? window.location.origin
    return { baseUrl, apiBaseUrl: window.__API_BASE_URL__ ?? baseUrl }
  })

export const Route = createRootRoute({
  beforeLoad: ({ location }) => ({ locale: localeFromPathname(location.pathname) ?? sourceLocale }),
  // The catalog follows the URL's locale: reload on every navigation (a cached import on the client)
  // and wait for it, so a page never renders in the previous language. Loaded, not returned: loader data
  // travels in the page's hydration data, and the catalog comes as a chunk of its own (lib/i18n.ts).
  loader: {
    handler: async ({ context }): Promise<RootData> => {
      await loadCatalog(context.locale)
      return { locale: context.locale, ...publicUrls() }
    },
    staleReloadMode: 'blocking',
  },
  shouldReload: true,
  head: () => ({
    meta: [
      { charSet: 'utf-8' },
      { name: 'viewport', content: 'width=device-width, initial-scale=1' },
      { name: 'color-scheme', content: 'light dark' },
    ],
    links: [
      // The Latin face is on every page's first screen: fetch it with the CSS so text does not reflow.
      { rel: 'preload', href: interLatin, as: 'font', type: 'font/woff2', crossOrigin: 'anonymous' },
      { rel: 'stylesheet', href: appCss },
      { rel: 'icon', type: 'image/svg+xml', href: '/favicon.svg', suppressHydrationWarning: true },
      { rel: 'apple-touch-icon', href: '/apple-touch-icon.png' },
    ],
  }),
  shellComponent: RootDocument,
  component: RootComponent,
  notFoundComponent: NotFoundRedirect,
})

declare module '@tanstack/react-router' {
  interface StaticDataRouteOption {
    /** The catalogs beyond the page's own (`messages`) that the route's screens read. */
    catalogs?: Exclude<CatalogName, 'messages'>[]
  }
}

function RootDocument({ children }: { children: React.ReactNode }) {
  const data = Route.useLoaderData() as RootData | undefined
  // What app/client.tsx loads before it hydrates, besides the page's own catalog.
  const catalogs = useMatches({ select: (matches) => matches.flatMap((match) => match.staticData.catalogs ?? []) })
  return (
    <html lang={data?.locale ?? sourceLocale} data-catalogs={catalogs.join(' ') || undefined} suppressHydrationWarning>
      <head>
        <ScriptOnce>{themeScript}</ScriptOnce>
        <HeadContent />
        {data && (
          <ScriptOnce>{`window.__BASE_URL__=${JSON.stringify(data.baseUrl)};window.__API_BASE_URL__=${JSON.stringify(data.apiBaseUrl)}`}</ScriptOnce>
        )}
      </head>
      <body>
        <div id="app" data-mounted="false">
          {children}
        </div>
        <Scripts />
      </body>
    </html>
  )
}

function RootComponent() {
  const { locale } = Route.useLoaderData()
  const messages = useCatalog(locale)
  useThemeSync()
  return (
    <I18nProvider i18n={i18nFor(locale, messages)}>
      <ClientGuards />
      <Outlet />
    </I18nProvider>
  )
}
