import { setupI18n } from '@lingui/core'
import { I18nProvider } from '@lingui/react'
import {
  createMemoryHistory,
  createRootRoute,
  createRoute,
  createRouter,
  RouterContextProvider,
} from '@tanstack/react-router'
import type * as React from 'react'
import { renderToStaticMarkup } from 'react-dom/server'

// The pages the components under test link to, in the app's shape, so their links resolve as on the site.
const root = createRootRoute()
const locale = createRoute({ getParentRoute: () => root, path: '{-$locale}' })
const routeTree = root.addChildren([
  locale.addChildren(
    ['/', 'models/', 'models/$slug', 'news/', 'news/$slug', 'docs/$slug', 'api-dashboard/{-$tab}'].map((path) =>
      createRoute({ getParentRoute: () => locale, path }),
    ),
  ),
])

/**
 * Server-renders `node` as a visitor of `lang` gets it (an empty catalog, so messages show their source text)
 * on the page `at`.
 */
export async function renderInLocale(node: React.ReactNode, lang = 'en-US', at = '/'): Promise<string> {
  const router = createRouter({ routeTree, history: createMemoryHistory({ initialEntries: [at] }) })
  await router.load()
  const i18n = setupI18n({ locale: lang, messages: { [lang]: {} } })
  return renderToStaticMarkup(
    <RouterContextProvider router={router}>
      <I18nProvider i18n={i18n}>{node}</I18nProvider>
    </RouterContextProvider>,
  )
}

/** The text of every `tag` element in `html`, tags inside removed. */
export function textsOf(html: string, tag: string): string[] {
  const pattern = new RegExp(`<${tag}\\b[^>]*>([\\s\\S]*?)</${tag}>`, 'g')
  return [...html.matchAll(pattern)].map((m) => m[1].replace(/<[^>]+>/g, '').replace(/&amp;/g, '&'))
}
