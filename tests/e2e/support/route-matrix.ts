import type { Browser, BrowserContext, Page } from 'playwright-core'
import { models } from '#content/models'
import { getDocsEntry } from '#content/docs-index'
import { posts } from '#content/news'
import { staticPublicPaths } from '~/lib/public-paths'
import { interfaceLocales, localizePath, type Locale } from '~/lib/locale'
import { axe, wcagTags } from './axe'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { appRunning, contextWithStore, launchBrowser, watchPage, type PageProblems } from './browser'
import { layoutWidths, overflowAt } from './overflow'

/** Every public page template (one model and one post stand for theirs) and the dashboard's. */
export const matrixPaths = [
  ...staticPublicPaths,
  `/models/${models[0]!.slug}`,
  `/news/${posts[0]!.slug}`,
  // The documentation page with the widest tables and the most code.
  `/docs/${getDocsEntry('reader')!.slug}`,
  '/api-dashboard',
  '/api-dashboard/usage',
]

/**
 * Each locale's pages are loaded once, in one theme: light and dark alternate from locale to locale, so every
 * route is seen in both themes and in every locale. Loading every page twice (once per theme) took as long
 * again and found nothing a theme changes per locale: the markup and the text are the same in both.
 */
export const darkIn = (locale: Locale) => interfaceLocales.indexOf(locale) % 2 === 1
/**
 * Axe in one light and one dark locale, English and German (the longest Latin text): the markup is the same in
 * every locale (catalogs.test.ts checks every message is translated), and one run costs seconds.
 */
const axeLocales = new Set<Locale>(['en-US', 'de'])
const desktop = { width: 1280, height: 720 }

/**
 * Runs `work` over `items` with `workers` long-lived tabs, so no visit pays for opening a tab. Each tab has
 * its own context: tabs sharing local storage raced, one page's saved language moving another's visit.
 */
async function inTabs<T>(
  newContext: () => Promise<BrowserContext>,
  baseUrl: string,
  items: T[],
  workers: number,
  work: (page: Page, watch: PageProblems, item: T) => Promise<void>,
) {
  const queue = [...items]
  await Promise.all(
    Array.from({ length: workers }, async () => {
      const context = await newContext()
      const page = await context.newPage()
      const watch = watchPage(page, baseUrl)
      for (let item = queue.shift(); item !== undefined; item = queue.shift()) {
        watch.problems.length = 0
        await work(page, watch, item)
      }
      await context.close()
    }),
  )
}

/**
 * Loads every path of `matrixPaths` in each interface locale of one theme (`dark`), and says what a visitor
 * would notice: a status other than 200, the wrong language, theme, favicon or address, no title or not one
 * h1, console errors or hydration warnings, a page wider than a phone or a tablet, and (in the axe locale of
 * that theme) accessibility violations. The two themes are two test files, so the two e2e workers share them.
 */
export async function routeMatrixFailures(browser: Browser, baseUrl: string, dark: boolean): Promise<string[]> {
  const failures: string[] = []
  const newContext = () => contextWithStore(browser, { settings: { darkMode: dark } }, {}, { everyLoad: true })
  const visits = interfaceLocales
    .filter((locale) => darkIn(locale) === dark)
    .flatMap((locale) => matrixPaths.map((path) => ({ locale, path: localizePath(path, locale) })))
  await inTabs(newContext, baseUrl, visits, 3, async (page, watch, { locale, path }) => {
    try {
      // Each resize lays the whole page out again, so a page starts where its first check is: on the desktop in
      // the axe locales (every route also hydrates there), and elsewhere at the narrowest width, as on a phone.
      const axeHere = axeLocales.has(locale)
      await page.setViewportSize(axeHere ? desktop : { width: layoutWidths[0], height: desktop.height })
      const response = await page.goto(baseUrl + path, { waitUntil: 'load' })
      await appRunning(page, 15_000)
      await page.waitForTimeout(50)
      const state = await page.evaluate(() => ({
        lang: document.documentElement.lang,
        dark: document.documentElement.classList.contains('dark'),
        favicon: document.querySelector<HTMLLinkElement>('link[rel="icon"]')?.getAttribute('href'),
        title: document.title,
        h1: document.querySelectorAll('h1').length,
        path: location.pathname,
      }))
      const expected = { lang: locale, dark, favicon: dark ? '/favicon-dark.svg' : '/favicon.svg', path }
      const actual = { lang: state.lang, dark: state.dark, favicon: state.favicon, path: state.path }
      if (response?.status() !== 200) failures.push(`${path}: status ${response?.status()}`)
      // Public pages come prerendered in every locale; the dashboard renders per request.
      const prerendered = (await response?.allHeaders())?.['x-prerendered'] === '1'
      if (prerendered === path.includes('api-dashboard')) failures.push(`${path}: prerendered ${prerendered}`)
      if (JSON.stringify(actual) !== JSON.stringify(expected))
        failures.push(`${path}: ${JSON.stringify(actual)} != ${JSON.stringify(expected)}`)
      if (!state.title || state.h1 !== 1) failures.push(`${path}: title "${state.title}", ${state.h1} h1`)
      for (const problem of watch.problems) failures.push(`${path}: ${problem}`)
      if (axeHere) {
        const { violations } = await axe(page, [...wcagTags, 'best-practice'])
        for (const v of violations)
          failures.push(
            `${path}: axe ${v.id} (${v.impact}) at ${v.nodes
              .slice(0, 2)
              .map((n) => n.target.join(' '))
              .join(', ')}`,
          )
      }
      // No page wider than a phone or a tablet.
      for (const width of layoutWidths) {
        const overflow = await overflowAt(page, width)
        if (overflow) failures.push(`${path} at ${width}: ${overflow}`)
      }
    } catch (error) {
      failures.push(`${path}: ${(error as Error).message.split('\n')[0]}; ${watch.problems.join('; ')}`)
    }
  })
  return failures
}

/** The route matrix of one theme as a test file runs it: one test, its own browser. */
export function describeRouteMatrix(baseUrl: string, dark: boolean): void {
  describe('every route in every interface locale, light and dark, accessible and no wider than a phone', () => {
    let browser: Browser
    beforeAll(async () => {
      browser = await launchBrowser()
    })
    afterAll(() => browser?.close())

    const theme = dark ? 'dark' : 'light'
    it(`renders without console errors or hydration warnings: the locales seen in the ${theme} theme`, async () => {
      expect(await routeMatrixFailures(browser, baseUrl, dark)).toEqual([])
    }, 600_000)
  })
}
