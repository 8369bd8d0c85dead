import type * as React from 'react'
import { describe, expect, it } from 'vitest'
import { LocalizedLink } from '~/components/site/localized-link'
import type { PagePath } from '~/lib/page-path'
import { renderInLocale } from '../support/render'

/** The href `link` gets on the page `at`, rendered in `lang`. */
async function hrefOf(at: string, lang: string, link: React.ReactNode) {
  return /href="([^"]*)"/.exec(await renderInLocale(link, lang, at))?.[1]
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
