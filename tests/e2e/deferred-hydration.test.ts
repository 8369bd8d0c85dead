import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { keyFrom } from '../support/trial-key'
import { contextWithStore, watchPage, useBrowser } from './support/browser'
import { serveBuild, type ServedBuild } from './support/server'
import { freePort } from '../support/ports'

const baseUrl = inject('baseUrl')

/**
 * What a visitor's console shows (`problems`), the policy's refusals alone (a refused script is a console error
 * too, in problems), and the scripts requested before the page's load event.
 */
function watchRuntime(page: Page, origin: string) {
  const { problems } = watchPage(page, origin)
  const refused: string[] = []
  page.on('console', (message) => /Content Security Policy/i.test(message.text()) && refused.push(message.text()))
  let loaded = false
  const beforeLoad: string[] = []
  page.on('load', () => (loaded = true))
  page.on('request', (request) => {
    if (request.resourceType() === 'script' && !loaded) beforeLoad.push(request.url())
  })
  return { problems, refused, beforeLoad }
}

const browser = useBrowser({ painting: true })

/**
 * A prerendered page whose client runtime is held back until `release`, so a tap can land before the app runs,
 * as on a slow phone. Records the scripts fetched before `load`.
 */
async function heldPage(path: string, viewport = { width: 1280, height: 900 }) {
  const context = await contextWithStore(browser, undefined, { viewport })
  const page: Page = await context.newPage()
  const { problems } = watchPage(page, baseUrl)
  let release!: () => void
  const held = new Promise<void>((resolve) => (release = resolve))
  await page.route(/\/assets\/index-[\w-]+\.js$/, async (route) => {
    await held
    await route.continue()
  })
  let loaded = false
  const beforeLoad: string[] = []
  page.on('load', () => (loaded = true))
  page.on('request', (request) => {
    if (request.resourceType() === 'script' && !loaded) beforeLoad.push(request.url())
  })
  await page.goto(baseUrl + path, { waitUntil: 'load' })
  // Marks this document: a full reload would lose it.
  await page.evaluate(() => Object.assign(window, { sameDocument: true }))
  return { page, context, release, beforeLoad, problems }
}

describe('prerendered pages start their client runtime when it is needed', () => {
  it('on a first visit fetches the runtime at idle but runs it only on the first interaction', async () => {
    const context = await contextWithStore(browser, undefined, {
      viewport: { width: 390, height: 844 },
      hasTouch: true,
      isMobile: true,
    })
    const page = await context.newPage()
    const { problems } = watchPage(page, baseUrl)
    const fetched: string[] = []
    page.on('request', (request) => /\.js$/.test(request.url()) && fetched.push(request.url()))
    await page.goto(baseUrl + '/models', { waitUntil: 'load' })
    await expect.poll(() => fetched.some((url) => /\/assets\/index-[\w-]+\.js$/.test(url))).toBe(true)
    await page.waitForLoadState('networkidle')
    await page.waitForTimeout(1_000)
    expect(await page.getAttribute('#app', 'data-mounted')).toBe('false')
    // Nor has the router's hydration data run: it is a file of its own, fetched with the runtime.
    expect(await page.evaluate(() => '$_TSR' in window)).toBe(false)
    expect(await page.locator('script[data-tsr-stream-part]').count()).toBe(0)
    expect(fetched.some((url) => /\/_hydration\/[\w-]+\.js$/.test(url))).toBe(true)
    // The prefetch waits for the first paint: its requests never compete with what the visitor is about to see.
    const { paint, prefetchStarts } = await page.evaluate(() => ({
      paint: performance.getEntriesByName('first-contentful-paint')[0]?.startTime,
      prefetchStarts: performance
        .getEntriesByType('resource')
        .filter((entry) => /\/(assets|_hydration)\/[\w-]+\.js$/.test(entry.name))
        .map((entry) => entry.startTime),
    }))
    expect(paint).toBeGreaterThan(0)
    expect(prefetchStarts.length).toBeGreaterThan(0)
    expect(Math.min(...prefetchStarts)).toBeGreaterThanOrEqual(paint!)
    await page.touchscreen.tap(5, 400)
    await page.waitForSelector('#app[data-mounted="true"]')
    expect(problems).toEqual([])
    await context.close()
  })

  it('starts it when a live demo comes into view', async () => {
    const context = await contextWithStore(browser, undefined, { viewport: { width: 390, height: 844 } })
    const page = await context.newPage()
    const { problems } = watchPage(page, baseUrl)
    await page.goto(baseUrl + '/embeddings', { waitUntil: 'load' })
    await page.waitForLoadState('networkidle')
    expect(await page.getAttribute('#app', 'data-mounted')).toBe('false')
    // Scrolled by script, not by the visitor: only the demo's visibility can start the app.
    await page.evaluate(() => document.querySelector('[data-demo]')!.scrollIntoView())
    await page.waitForSelector('[data-testid="demo-run"]')
    // and the page stays where it was: hydration does not restore the scroll to the top.
    expect(await page.evaluate(() => document.querySelector('[data-demo]')!.getBoundingClientRect().top)).toBeLessThan(
      844,
    )
    expect(problems).toEqual([])
    await context.close()
  })

  it('keeps a visitor who scrolls before the app runs where they scrolled', async () => {
    const context = await contextWithStore(browser)
    const page = await context.newPage()
    await page.goto(baseUrl + '/models', { waitUntil: 'load' })
    await page.mouse.move(200, 300)
    await page.mouse.wheel(0, 1200)
    await page.waitForSelector('#app[data-mounted="true"]')
    await page.waitForTimeout(500)
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(1000)
    await context.close()
  })

  it('starts it at once for a returning visitor whose stored language must redirect', async () => {
    const context = await contextWithStore(browser, { language: 'ja' })
    const page = await context.newPage()
    await page.goto(baseUrl + '/models')
    await page.waitForURL(/\/ja\/models$/)
    await context.close()
  })

  it('fetches no script before load, and a link tapped before the app runs navigates in place once it does', async () => {
    const { page, context, release, beforeLoad, problems } = await heldPage('/')
    expect(beforeLoad).toEqual([])
    await page.locator('header a[href="/models"]:visible').first().click()
    expect(await page.getAttribute('#app', 'data-mounted')).toBe('false')
    expect(new URL(page.url()).pathname).toBe('/')
    release()
    await page.waitForURL(/\/models$/)
    await page.waitForSelector('#app[data-mounted="true"]')
    expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true)
    expect(problems).toEqual([])
    await context.close()
  })

  it('opens the theme menu tapped before the app runs, and its choice applies', async () => {
    const { page, context, release } = await heldPage('/embeddings')
    await page.getByRole('button', { name: /^Theme: / }).click()
    release()
    await page.waitForSelector('#app[data-mounted="true"]')
    await page.getByRole('button', { name: 'Dark', exact: true }).click()
    await expect.poll(() => page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(true)
    await context.close()
  })
})

describe('live pages start their client runtime once the browser is idle after the first paint', () => {
  let apiKey: string
  beforeAll(async () => {
    apiKey = await keyFrom(baseUrl)
  })

  /** A visitor holding `apiKey` (stored, and in the cookie unless `cookie` is false), on a phone-sized screen. */
  async function dashboardVisitor({ cookie = true } = {}) {
    const context = await contextWithStore(browser, { apiKey }, { viewport: { width: 390, height: 844 } })
    if (cookie) await context.addCookies([{ name: 'apiKey', value: apiKey, url: baseUrl, secure: true }])
    const page = await context.newPage()
    return { context, page, ...watchRuntime(page, baseUrl) }
  }

  it('fetches no script before load, then runs without any input: the stored key’s balance shows', async () => {
    // No cookie: the server renders no balance, so only the running app can show it.
    const { context, page, problems, refused, beforeLoad } = await dashboardVisitor({ cookie: false })
    const response = await page.goto(baseUrl + '/api-dashboard', { waitUntil: 'load' })
    expect(response?.headers()['x-prerendered']).toBeUndefined()
    expect(beforeLoad).toEqual([])
    // Nothing is pressed, moved or scrolled from here on.
    await page.waitForSelector('#app[data-mounted="true"]', { timeout: 15_000 })
    await expect.poll(async () => Number(await page.getByTestId('balance').getAttribute('data-value'))).toBe(10_000_000)
    const { paint, runtimeStarts } = await page.evaluate(() => ({
      paint: performance.getEntriesByName('first-contentful-paint')[0]?.startTime,
      runtimeStarts: performance
        .getEntriesByType('resource')
        .filter((entry) => /\/assets\/[\w-]+\.js$/.test(entry.name))
        .map((entry) => entry.startTime),
    }))
    expect(paint).toBeGreaterThan(0)
    expect(Math.min(...runtimeStarts)).toBeGreaterThanOrEqual(paint!)
    // The router's hydration data stayed inline (it is this request's): the loader asked for no file of it.
    const hydrationFile = () => performance.getEntriesByType('resource').some((e) => /\/_hydration\//.test(e.name))
    expect(await page.evaluate(hydrationFile)).toBe(false)
    expect(refused).toEqual([])
    expect(problems).toEqual([])
    await context.close()
  })

  it('carries no catalog in its HTML: its catalogs come after the paint, as files a browser keeps for every page', async () => {
    const { context, page, problems, refused } = await dashboardVisitor()
    const response = await page.goto(baseUrl + '/de/api-dashboard', { waitUntil: 'load' })
    // The German catalogs alone are about 60 KB; the page with its balance, without them, about 20 KB.
    expect((await response!.body()).byteLength).toBeLessThan(40_000)
    await page.waitForSelector('#app[data-mounted="true"]', { timeout: 15_000 })
    expect(await page.getByRole('link', { name: 'Nutzung', exact: true }).isVisible()).toBe(true)
    const catalogs = await page.evaluate(() =>
      performance
        .getEntriesByType('resource')
        .filter((entry) => /\/assets\/(messages|app)-[\w-]{8}\.js$/.test(entry.name))
        .map(({ name, startTime }) => ({ name, startTime })),
    )
    expect(catalogs.map((c) => c.name.replace(/.*\/(messages|app)-.*/, '$1')).sort()).toEqual(['app', 'messages'])
    const paint = await page.evaluate(() => performance.getEntriesByName('first-contentful-paint')[0]!.startTime)
    for (const catalog of catalogs) {
      expect(catalog.startTime).toBeGreaterThanOrEqual(paint)
      // Named by their content: the browser keeps them for the next page (the tests' browser caches nothing).
      const file = await context.request.get(catalog.name)
      expect(file.headers()['cache-control']).toMatch(/immutable/)
    }
    expect(refused).toEqual([])
    expect(problems).toEqual([])
    await context.close()
  })

  it('replays a tab tapped before the app runs, in place, once it does', async () => {
    const { context, page, problems, refused } = await dashboardVisitor()
    let release!: () => void
    const held = new Promise<void>((resolve) => (release = resolve))
    await page.route(/\/assets\/index-[\w-]+\.js$/, async (route) => {
      await held
      await route.continue()
    })
    await page.goto(baseUrl + '/api-dashboard', { waitUntil: 'load' })
    await page.evaluate(() => Object.assign(window, { sameDocument: true }))
    await page.getByRole('link', { name: 'Usage', exact: true }).click()
    expect(await page.getAttribute('#app', 'data-mounted')).toBe('false')
    expect(new URL(page.url()).pathname).toBe('/api-dashboard')
    release()
    await page.waitForURL(/\/api-dashboard\/usage$/)
    await page.waitForSelector('#app[data-mounted="true"]')
    await page.locator('[data-testid=usage-summary]').waitFor()
    expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true)
    expect(refused).toEqual([])
    expect(problems).toEqual([])
    await context.close()
  })
})

describe('the build served under an origin it was not built for', () => {
  // Built for http://localhost:3000; served here as a staging or production domain would serve the same build.
  let server: ServedBuild
  let origin: string
  beforeAll(async () => {
    const port = await freePort()
    origin = `http://127.0.0.1:${port}`
    server = await serveBuild(
      { PUBLIC_BASE_URL: origin, PUBLIC_API_BASE_URL: `${origin}/`, E2E_PUBLIC_BASE_URL: undefined, DATABASE_URL: '' },
      { port },
    )
  })
  afterAll(() => server?.stop({ forceAfterMs: 10_000 }))

  it('serves the prerendered pages rebased: its own origin in every link, the runtime still deferred', async () => {
    for (const path of ['/', '/ja/models', '/embeddings']) {
      const response = await fetch(origin + path, { headers: { 'accept-encoding': 'br' } })
      expect(response.headers.get('x-prerendered'), path).toBe('1')
      expect(response.headers.get('content-encoding'), path).toBe('br')
      const html = await response.text()
      expect(html, path).not.toContain('localhost:3000')
      expect(html, path).toContain(`<link rel="canonical" href="${origin}${path === '/' ? '' : path}`)
      const hydration = html.match(/"(\/_hydration\/[\w-]+\.js)"/)?.[1]
      expect(hydration, path).toBeDefined()
      expect(await (await fetch(origin + hydration!)).text(), path).not.toContain('localhost:3000')
    }
  })

  it('runs the page under its rebased policy: no script before load, the app starts on a tap, nothing refused', async () => {
    const context = await contextWithStore(browser, undefined, { viewport: { width: 390, height: 844 } })
    const page = await context.newPage()
    const { problems, refused, beforeLoad } = watchRuntime(page, origin)
    await page.goto(origin + '/embeddings', { waitUntil: 'load' })
    expect(beforeLoad).toEqual([])
    expect(await page.getAttribute('#app', 'data-mounted')).toBe('false')
    await page.keyboard.press('Shift')
    await page.waitForSelector('#app[data-mounted="true"]')
    expect(refused).toEqual([])
    expect(problems).toEqual([])
    await context.close()
  })
})
