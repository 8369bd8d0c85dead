import type { Browser, BrowserContext } from 'playwright-core'
import { beforeAll, describe, expect, inject, it } from 'vitest'
import { keyFrom } from '../support/trial-key'
import { appRunning, contextWithStore, watchPage, useBrowser } from './support/browser'

const baseUrl = inject('baseUrl')

/** The visitor as the site leaves them: the key in local storage and in the `apiKey` cookie (spec §4). */
async function visitorWith(
  browser: Browser,
  { stored, cookie, javaScript = true }: { stored?: string; cookie?: string; javaScript?: boolean },
): Promise<BrowserContext> {
  const context = await contextWithStore(browser, stored ? { apiKey: stored } : undefined, {
    viewport: { width: 390, height: 844 },
    javaScriptEnabled: javaScript,
  })
  if (cookie) await context.addCookies([{ name: 'apiKey', value: cookie, url: baseUrl, secure: true }])
  return context
}

async function embed(apiKey: string) {
  const response = await fetch(`${baseUrl}/v1/embeddings`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'embeddings-v3', input: ['first paint'] }),
  })
  expect(response.status).toBe(200)
  await response.arrayBuffer()
}

describe('the dashboard’s first paint', () => {
  const browser = useBrowser({ painting: true })
  let apiKey: string
  beforeAll(async () => {
    apiKey = await keyFrom(baseUrl)
    await embed(apiKey)
  })

  it('arrives with the balance and the usage in its HTML, before any script runs', async () => {
    const context = await visitorWith(browser, { cookie: apiKey, javaScript: false })
    const page = await context.newPage()
    const response = await page.goto(`${baseUrl}/api-dashboard`)
    // The page carries this visitor's figures: never kept by a shared cache.
    expect(response?.headers()['cache-control']).toBe('private, no-store')
    const balance = Number(await page.getByTestId('balance').getAttribute('data-value'))
    expect(balance).toBeGreaterThan(9_000_000)
    expect(balance).toBeLessThan(10_000_000)
    expect(await page.getByTestId('api-key').textContent()).toContain(apiKey.slice(-4))

    await page.goto(`${baseUrl}/api-dashboard/usage`)
    expect(await page.locator('[data-testid=summary-by-model] tbody tr').count()).toBeGreaterThan(0)
    expect(await page.getByTestId('consumption-total').textContent()).not.toBe('0')
    await context.close()
  })

  it('arrives with the alerts, auto-recharge and models tabs and the sign-in bar filled in, forms disabled until the app runs', async () => {
    const context = await visitorWith(browser, { cookie: apiKey, javaScript: false })
    const page = await context.newPage()
    await page.goto(`${baseUrl}/api-dashboard/notifications`)
    expect(await page.getByTestId('notification-email').isDisabled()).toBe(true)
    await page.goto(`${baseUrl}/api-dashboard/auto-recharge`)
    expect(await page.getByTestId('recharge-status').getAttribute('data-enabled')).toBe('false')
    expect(await page.getByTestId('recharge-threshold').isDisabled()).toBe(true)
    // The packs too: a save the moment the form is enabled must not meet an empty list ("Choose a pack").
    expect(await page.getByTestId('recharge-pack').locator('option').count()).toBeGreaterThan(0)
    await page.goto(`${baseUrl}/api-dashboard/models`)
    expect(await page.getByRole('row').count()).toBeGreaterThan(5)
    // No session: the way to sign in is drawn with the page, not after the browser has checked.
    expect(await page.getByTestId('sign-in-link').isVisible()).toBe(true)
    await context.close()

    // With the app running, the same form takes input.
    const running = await visitorWith(browser, { stored: apiKey, cookie: apiKey })
    const live = await running.newPage()
    await live.goto(`${baseUrl}/api-dashboard/auto-recharge`)
    await live.getByTestId('recharge-threshold').fill('123456')
    expect(await live.getByTestId('recharge-threshold').inputValue()).toBe('123456')
    await running.close()
  })

  it('hydrates onto the server’s HTML without a mismatch, and loads only the open tab’s code', async () => {
    const context = await visitorWith(browser, { stored: apiKey, cookie: apiKey })
    const page = await context.newPage()
    const { problems } = watchPage(page, baseUrl)
    const scripts: string[] = []
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname)
    })
    await page.goto(`${baseUrl}/api-dashboard`)
    await appRunning(page)
    await page.getByTestId('buy-tokens').waitFor()
    // The open tab hydrates when its chunk arrives, which may be after the app has mounted around the server's HTML.
    await expect.poll(() => scripts.some((path) => /\/key-tab-/.test(path)), { timeout: 30_000 }).toBe(true)
    expect(scripts.filter((path) => /\/(usage-tab|requests-tab|audit-tab)-/.test(path))).toEqual([])

    // Another tab fetches its code with it.
    await page.getByRole('link', { name: 'Usage', exact: true }).click()
    await page.locator('[data-testid=summary-by-model] tbody tr').first().waitFor()
    await page.locator('[data-testid=usage-summary]').waitFor()
    expect(scripts.some((path) => /\/usage-tab-/.test(path))).toBe(true)
    expect(problems).toEqual([])
    await context.close()
  })

  it('shows the key this browser stores when the cookie names another', async () => {
    const other = await keyFrom(baseUrl)
    const context = await visitorWith(browser, { stored: other, cookie: apiKey })
    const page = await context.newPage()
    const { problems } = watchPage(page, baseUrl)
    await page.goto(`${baseUrl}/api-dashboard`)
    await appRunning(page)
    // The store decides (spec §3): the untouched key's full pack, not the used key's balance.
    await expect.poll(async () => Number(await page.getByTestId('balance').getAttribute('data-value'))).toBe(10_000_000)
    expect(await page.getByTestId('api-key').textContent()).toContain(other.slice(-4))
    // And the cookie follows the store again.
    await expect
      .poll(async () => (await context.cookies()).find((cookie) => cookie.name === 'apiKey')?.value)
      .toBe(other)
    expect(problems).toEqual([])
    await context.close()
  })

  it('draws the trial-key card with the page for a first visitor, its largest paint before any script', async () => {
    const bare = await visitorWith(browser, { javaScript: false })
    const html = await bare.newPage()
    await html.goto(`${baseUrl}/api-dashboard`)
    expect(await html.getByRole('heading', { name: 'Get a free trial key' }).isVisible()).toBe(true)
    expect(await html.getByText(/free tokens for every API/).isVisible()).toBe(true)
    expect(await html.getByTestId('get-trial-key').isVisible()).toBe(true)
    expect(await html.locator('main [data-slot=skeleton]').count()).toBe(0)
    await bare.close()

    // With scripts, as Lighthouse loads it: the largest paint comes before the app's code is even fetched.
    const context = await visitorWith(browser, {})
    await context.addInitScript(() => {
      const entries: Array<{ at: number; text: string }> = []
      Object.assign(window, { largestPaints: entries })
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as Array<PerformanceEntry & { element?: Element }>)
          entries.push({ at: entry.startTime, text: entry.element?.textContent?.slice(0, 60) ?? '' })
      }).observe({ type: 'largest-contentful-paint', buffered: true })
    })
    const page = await context.newPage()
    const { problems } = watchPage(page, baseUrl)
    await page.goto(`${baseUrl}/api-dashboard`, { waitUntil: 'load' })
    await page.waitForSelector('#app[data-mounted="true"]', { timeout: 15_000 })
    const { paints, runtimeStarts } = await page.evaluate(() => ({
      paints: (window as unknown as { largestPaints: Array<{ at: number; text: string }> }).largestPaints,
      runtimeStarts: performance
        .getEntriesByType('resource')
        .filter((entry) => /\/assets\/[\w-]+\.js$/.test(entry.name))
        .map((entry) => entry.startTime),
    }))
    expect(paints.length).toBeGreaterThan(0)
    expect(paints.at(-1)!.at, JSON.stringify(paints)).toBeLessThanOrEqual(Math.min(...runtimeStarts))
    expect(problems).toEqual([])
    await context.close()
  })

  it('tells a page without the cookie nothing about any key', async () => {
    const response = await fetch(`${baseUrl}/api-dashboard`)
    const html = await response.text()
    expect(html).not.toContain('data-testid="balance"')
    expect(response.headers.get('cache-control')).not.toBe('private, no-store')
  })
})
