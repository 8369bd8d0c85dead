import { I18nProvider } from '@lingui/react'
import { setupI18n } from '@lingui/core'
import {
  createMemoryHistory,
  createRootRoute,
  createRoute,
  createRouter,
  RouterContextProvider,
} from '@tanstack/react-router'
import type * as React from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { LocalizedLink } from '~/components/site/localized-link'
import type { PagePath } from '~/lib/page-path'

// A route tree of the same shape as the app's, so links resolve here as they do on the site.
const root = createRootRoute()
const locale = createRoute({ getParentRoute: () => root, path: '{-$locale}' })
const routeTree = root.addChildren([
  locale.addChildren([
    createRoute({ getParentRoute: () => locale, path: '/' }),
    createRoute({ getParentRoute: () => locale, path: 'models/' }),
    createRoute({ getParentRoute: () => locale, path: 'models/$slug' }),
    createRoute({ getParentRoute: () => locale, path: 'api-dashboard/{-$tab}' }),
  ]),
])

/** The href `link` gets on the page `at`, rendered in `lang`. */
async function hrefOf(at: string, lang: string, link: React.ReactNode) {
  const router = createRouter({ routeTree, history: createMemoryHistory({ initialEntries: [at] }) })
  await router.load()
  const i18n = setupI18n({ locale: lang, messages: { [lang]: {} } })
  const html = renderToStaticMarkup(
    <RouterContextProvider router={router}>
      <I18nProvider i18n={i18n}>{link}</I18nProvider>
    </RouterContextProvider>,
  )
  return /href="([^"]*)"/.exec(html)?.[1]
}

describe('LocalizedLink', () => {
  it('adds no prefix in the default locale and the locale segment in any other', async () => {
    const link = (
      <LocalizedLink to="/{-$locale}/models/$slug" params={{ slug: 'reranker-v3' }}>
        x
      </LocalizedLink>
    )
    expect(await hrefOf('/', 'en-US', link)).toBe('/models/reranker-v3')
    expect(await hrefOf('/de', 'de', link)).toBe('/de/models/reranker-v3')
    expect(await hrefOf('/ja/models', 'ja', <LocalizedLink to="/{-$locale}">x</LocalizedLink>)).toBe('/ja')
  })

  it('drops the en alias segment, as en-US has no prefix', async () => {
    expect(await hrefOf('/en/models', 'en-US', <LocalizedLink to="/{-$locale}/models">x</LocalizedLink>)).toBe(
      '/models',
    )
  })

  it('takes no param from the page it is on', async () => {
    const home = <LocalizedLink to="/{-$locale}/api-dashboard/{-$tab}">x</LocalizedLink>
    expect(await hrefOf('/de/api-dashboard/billing', 'de', home)).toBe('/de/api-dashboard')
    const billing = (
      <LocalizedLink to="/{-$locale}/api-dashboard/{-$tab}" params={{ tab: 'billing' }}>
        x
      </LocalizedLink>
    )
    expect(await hrefOf('/api-dashboard/usage', 'en-US', billing)).toBe('/api-dashboard/billing')
  })

  it('keeps search and hash', async () => {
    expect(
      await hrefOf(
        '/',
        'en-US',
        <LocalizedLink to="/{-$locale}/models" search={{ tag: 'reranker' }}>
          x
        </LocalizedLink>,
      ),
    ).toBe('/models?tag=reranker')
    expect(
      await hrefOf(
        '/fr',
        'fr',
        <LocalizedLink to="/{-$locale}/models" hash="research">
          x
        </LocalizedLink>,
      ),
    ).toBe('/fr/models#research')
  })

  it('refuses a path or params the route tree does not have, at compile time', () => {
    // Elements are created, never rendered: what is checked here is that tsc rejects each marked line.
    const links = [
      // @ts-expect-error: no such route
      <LocalizedLink to="/{-$locale}/modelz">x</LocalizedLink>,
      // @ts-expect-error: a path without the locale segment is not a route of the tree
      <LocalizedLink to="/models">x</LocalizedLink>,
      // @ts-expect-error: the model's slug is missing
      <LocalizedLink to="/{-$locale}/models/$slug">x</LocalizedLink>,
      // @ts-expect-error: not a tag of the models page's search schema
      <LocalizedLink to="/{-$locale}/models" search={{ tag: 'no-such-tag' }}>
        x
      </LocalizedLink>,
    ]
    // @ts-expect-error: a page with a param of its own is not a PagePath
    const page: PagePath = '/{-$locale}/models/$slug'
    expect([...links, page]).toHaveLength(5)
  })
})
