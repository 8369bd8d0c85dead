import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { launchBrowser, watchPage } from './support/browser'

const baseUrl = inject('baseUrl')

describe('links after hydration', () => {
  let browser: Browser
  beforeAll(async () => {
    browser = await launchBrowser()
  })
  afterAll(() => browser?.close())

  async function open(path: string): Promise<{ page: Page; problems: string[] }> {
    const page = await browser.newPage()
    const { problems } = watchPage(page, baseUrl)
    await page.goto(baseUrl + path)
    await page.waitForSelector('#app[data-mounted="true"]')
    return { page, problems }
  }
  const hrefs = (page: Page, selector: string) => page.locator(selector).evaluateAll((links) => links.map((a) => a.getAttribute('href')))

  it('links from a dashboard tab to the dashboard itself, not to that tab', async () => {
    const { page } = await open('/fr/api-dashboard/usage')
    expect(await hrefs(page, 'header a[href*="api-dashboard"]:not([hreflang])')).toEqual(['/fr/api-dashboard', '/fr/api-dashboard'])
    const tabs = await hrefs(page, '#main nav a')
    expect(tabs[0]).toBe('/fr/api-dashboard')
    expect(tabs).toContain('/fr/api-dashboard/usage')
    expect(tabs).toContain('/fr/api-dashboard/billing')
    await page.close()
  })
})
