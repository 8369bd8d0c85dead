import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { contextWithStore, launchBrowser, watchPage } from './support/browser'

const baseUrl = inject('baseUrl')

let browser: Browser
beforeAll(async () => {
  browser = await launchBrowser()
})
afterAll(() => browser?.close())

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
