import type { Page } from 'playwright-core'
import { describe, expect, inject, it } from 'vitest'
import { appRunning, contextWithStore, watchPage, useBrowser } from './support/browser'

const baseUrl = inject('baseUrl')

describe('router guards in a real browser', () => {
  const browser = useBrowser()

  async function open(path: string, store?: Record<string, unknown>): Promise<{ page: Page; problems: string[] }> {
    const context = await contextWithStore(browser, store)
    const page = await context.newPage()
    const { problems } = watchPage(page, baseUrl)
    await page.goto(baseUrl + path)
    await appRunning(page)
    return { page, problems }
  }
  const pathOf = (page: Page) => new URL(page.url()).pathname + new URL(page.url()).search

  it('sends sui on a non-dashboard page to the dashboard, keeping locale and query', async () => {
    const { page } = await open('/de/reader?sui=1&ref=mail')
    await page.waitForURL(/api-dashboard/)
    expect(pathOf(page)).toBe('/de/api-dashboard?sui=1&ref=mail')
    await page.context().close()
  })

  it('sends an unsupported locale segment to landing', async () => {
    const { page } = await open('/xx/models')
    expect(pathOf(page)).toBe('/')
    await page.context().close()
  })

  it('sends an unknown path to landing, keeping the locale', async () => {
    const { page } = await open('/ja/no/such/page')
    expect(pathOf(page)).toBe('/ja')
    await page.context().close()
  })

  it('sends landing to the dashboard with login=true when an API key and showFarewell are stored', async () => {
    const { page } = await open('/fr', { apiKey: 'lds_test_farewell_key', settings: { showFarewell: true } })
    await page.waitForURL(/api-dashboard/)
    expect(pathOf(page)).toBe('/fr/api-dashboard?login=true')
    await page.context().close()
  })

  it('keeps a visitor on landing when showFarewell is stored without an API key, or a key without it', async () => {
    for (const store of [
      { settings: { showFarewell: true } },
      { apiKey: '', settings: { showFarewell: true } },
      { apiKey: 'lds_test_farewell_key' },
    ]) {
      const { page } = await open('/fr', store)
      // The guard runs right after mount; give a redirect time to show before asserting there was none.
      await page.waitForTimeout(500)
      expect(pathOf(page), JSON.stringify(store)).toBe('/fr')
      await page.context().close()
    }
  })

  it('lets a language in the URL override the stored one', async () => {
    const { page } = await open('/ko/models', { language: 'fr' })
    expect(pathOf(page)).toBe('/ko/models')
    expect(await page.evaluate(() => JSON.parse(localStorage.getItem('user')!).language)).toBe('ko')
    await page.context().close()
  })

  it('opens an unprefixed page in the stored language', async () => {
    const { page } = await open('/models', { language: 'zh-TW' })
    await page.waitForURL(/zh-TW/)
    expect(pathOf(page)).toBe('/zh-TW/models')
    // The URL changes first; the page follows once the new catalog has loaded.
    await page.waitForFunction(() => document.documentElement.lang === 'zh-TW')
    await page.context().close()
  })

  it('maps the en segment to en-US', async () => {
    const { page } = await open('/en/models')
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en-US')
    await page.context().close()
  })

  it('stores the s parameter and removes it from the URL', async () => {
    const { page } = await open('/embeddings?s=partner-42&x=1')
    await page.waitForURL((url) => !url.searchParams.has('s'))
    expect(pathOf(page)).toBe('/embeddings?x=1')
    expect(await page.evaluate(() => localStorage.getItem('s'))).toBe('partner-42')
    await page.context().close()
  })

  it('removes s before opening the page in the stored language, keeping the rest of the query', async () => {
    const { page } = await open('/embeddings?s=partner-7&x=1', { language: 'de' })
    await page.waitForURL(/\/de\//)
    expect(pathOf(page)).toBe('/de/embeddings?x=1')
    expect(await page.evaluate(() => localStorage.getItem('s'))).toBe('partner-7')
    await page.context().close()
  })

  it('falls back on guard parameters of an unexpected shape instead of showing an error page', async () => {
    const dashboard = await open('/api-dashboard?login=maybe&s[]=x')
    await dashboard.page.waitForSelector('#dashboard-title')
    expect(new URL(dashboard.page.url()).searchParams.get('s[]')).toBe('x')
    expect(dashboard.problems).toEqual([])
    await dashboard.page.context().close()
    // A repeated sui is still a sui: the page goes to the dashboard, which renders.
    const reader = await open('/de/reader?sui=a&sui=b&ref=mail')
    await reader.page.waitForURL(/api-dashboard/)
    await reader.page.waitForSelector('#dashboard-title')
    expect(new URL(reader.page.url()).pathname).toBe('/de/api-dashboard')
    expect(new URL(reader.page.url()).searchParams.get('ref')).toBe('mail')
    expect(reader.problems).toEqual([])
    await reader.page.context().close()
  })

  it('renders the dashboard, not the error page, for any value of login', async () => {
    for (const path of ['/api-dashboard?login=1', '/de/api-dashboard?login=x', '/api-dashboard?login=true&login=1']) {
      const answer = await fetch(baseUrl + path)
      expect(answer.status, path).toBe(200)
      const { page, problems } = await open(path)
      await page.waitForSelector('#dashboard-title')
      expect(new URL(page.url()).pathname).toBe(path.split('?')[0])
      expect(problems).toEqual([])
      await page.context().close()
    }
  })

  it('writes the apiKey cookie whenever a key is in the store', async () => {
    const { page } = await open('/', { apiKey: 'lds_test_cookie_key' })
    const cookies = await page.context().cookies()
    const cookie = cookies.find((c) => c.name === 'apiKey')
    expect(cookie).toMatchObject({ value: 'lds_test_cookie_key', path: '/', secure: true })
    await page.context().close()
  })

  it('resets scroll to the top on navigation', async () => {
    const { page } = await open('/')
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight))
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(100)
    await page.locator('footer a[href="/legal"]').click()
    await page.waitForURL(/\/legal$/)
    await page.waitForFunction(() => window.scrollY === 0)
    await page.context().close()
  })

  it('follows the system colour scheme on auto, including changes while open', async () => {
    const context = await contextWithStore(browser, { settings: { darkMode: 'auto' } }, { colorScheme: 'light' })
    const page = await context.newPage()
    await page.goto(`${baseUrl}/models`)
    await appRunning(page)
    const isDark = () => page.evaluate(() => document.documentElement.classList.contains('dark'))
    expect(await isDark()).toBe(false)
    await page.emulateMedia({ colorScheme: 'dark' })
    await page.waitForFunction(() => document.documentElement.classList.contains('dark'))
    expect(await page.evaluate(() => document.querySelector('link[rel="icon"]')!.getAttribute('href'))).toBe(
      '/favicon-dark.svg',
    )
    await context.close()
  })

  it('paints the stored dark theme before any script of the app runs', async () => {
    const context = await contextWithStore(browser, { settings: { darkMode: true } }, { javaScriptEnabled: true })
    const page = await context.newPage()
    // Read the class as the parser reaches <body>, before hydration.
    await page.addInitScript(() => {
      document.addEventListener('readystatechange', () => {
        if (document.readyState === 'interactive')
          (window as unknown as { __firstPaintDark: boolean }).__firstPaintDark =
            document.documentElement.classList.contains('dark')
      })
    })
    await page.goto(`${baseUrl}/`)
    expect(await page.evaluate(() => (window as unknown as { __firstPaintDark: boolean }).__firstPaintDark)).toBe(true)
    await context.close()
  })
})

describe('unknown paths over HTTP', () => {
  it('answers an unknown API path with 404 and a detail, not the landing page', async () => {
    const response = await fetch(`${baseUrl}/api/v1/no-such-endpoint`)
    expect(response.status).toBe(404)
    expect(await response.json()).toEqual({ detail: 'Unknown endpoint' })
  })

  it('sends an unknown page to landing with a redirect the server decides', async () => {
    const response = await fetch(`${baseUrl}/de/no-such-page`, { redirect: 'manual' })
    expect(response.status).toBe(307)
    expect(new URL(response.headers.get('location')!, baseUrl).pathname).toBe('/de')
  })
})
