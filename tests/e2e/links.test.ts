import type { Page } from 'playwright-core'
import { describe, expect, inject, it } from 'vitest'
import { appRunning, watchPage, useBrowser } from './support/browser'

const baseUrl = inject('baseUrl')

describe('links after hydration', () => {
  const browser = useBrowser()

  async function open(path: string): Promise<{ page: Page; problems: string[] }> {
    const page = await browser.newPage()
    const { problems } = watchPage(page, baseUrl)
    await page.goto(baseUrl + path)
    await appRunning(page)
    return { page, problems }
  }
  const hrefs = (page: Page, selector: string) =>
    page.locator(selector).evaluateAll((links) => links.map((a) => a.getAttribute('href')))
  const switcherHref = (page: Page, locale: string) => page.locator(`a[hreflang="${locale}"]`).getAttribute('href')
  /** The header's menus exist only while open: the language menu is opened by its button, named for the page's. */
  const openLanguages = (page: Page, current: string) => page.getByRole('button', { name: current }).click()

  it('offers the same page and query in every language', async () => {
    const { page, problems } = await open('/de/models/reranker-v3?tag=reranker')
    await openLanguages(page, 'Deutsch')
    expect(await switcherHref(page, 'en-US')).toBe('/models/reranker-v3?tag=reranker')
    expect(await switcherHref(page, 'ja')).toBe('/ja/models/reranker-v3?tag=reranker')
    expect(await switcherHref(page, 'de')).toBe('/de/models/reranker-v3?tag=reranker')
    expect(problems).toEqual([])
    await page.close()
  })

  it('drops the en alias and keeps a dashboard tab when switching language', async () => {
    const { page } = await open('/en/api-dashboard/usage')
    await openLanguages(page, 'English')
    expect(await switcherHref(page, 'en-US')).toBe('/api-dashboard/usage')
    expect(await switcherHref(page, 'zh-TW')).toBe('/zh-TW/api-dashboard/usage')
    await page.close()
  })

  it('opens the dashboard in the language of the page it came from, and in the one chosen there', async () => {
    // Its messages are a catalog of their own (app.po), loaded by its route: on a click, a reload, a switch.
    const { page, problems } = await open('/ja')
    await page.evaluate(() => Object.assign(window, { sameDocument: true }))
    const title = page.locator('#dashboard-title')
    await page.locator('header a[href="/ja/api-dashboard"]:visible').first().click()
    await page.waitForURL(/\/ja\/api-dashboard$/)
    // The address changes first; the page follows once the route's loaders are done.
    await expect.poll(() => title.textContent(), { timeout: 15_000 }).toBe('APIキー')
    expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true)
    await page.reload()
    await appRunning(page)
    expect(await title.textContent()).toBe('APIキー')
    await openLanguages(page, '日本語')
    await page.locator('a[hreflang="de"]').click()
    await page.waitForURL(/\/de\/api-dashboard$/)
    await expect.poll(() => title.textContent(), { timeout: 15_000 }).toBe('API-Schlüssel')
    expect(problems).toEqual([])
    await page.close()
  })

  it('links from a dashboard tab to the dashboard itself, not to that tab', async () => {
    const { page } = await open('/fr/api-dashboard/usage')
    const dashboardLinks = () => hrefs(page, 'header a[href*="api-dashboard"]:not([hreflang])')
    expect(await dashboardLinks()).toEqual(['/fr/api-dashboard'])
    // and so does the phone's menu.
    await page.setViewportSize({ width: 390, height: 844 })
    await page.getByRole('button', { name: 'Menu' }).click()
    expect(await dashboardLinks()).toEqual(['/fr/api-dashboard', '/fr/api-dashboard'])
    const tabs = await hrefs(page, '#main nav a')
    expect(tabs[0]).toBe('/fr/api-dashboard')
    expect(tabs).toContain('/fr/api-dashboard/usage')
    expect(tabs).toContain('/fr/api-dashboard/billing')
    await page.close()
  })
})
