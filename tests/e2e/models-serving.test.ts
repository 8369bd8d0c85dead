import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { appRunning, launchBrowser, watchPage } from './support/browser'
import { layoutWidths, overflowAt } from './support/overflow'

/** What a developer reads on a model page and the dashboard's Models tab: the id to send, and how it is served. */
const baseUrl = inject('baseUrl')
let browser: Browser
beforeAll(async () => {
  browser = await launchBrowser()
})
afterAll(() => browser?.close())

describe('serving shown to visitors', () => {
  it('a model page names the API id and aliases, then whether and with what this server serves it', async () => {
    const page = await browser.newPage()
    const problems = watchPage(page, baseUrl)
    await page.goto(`${baseUrl}/models/clip-v2`)
    const note = page.locator('p', { hasText: 'API id to send as' })
    await expect.poll(() => note.innerText()).toBe('API id to send as model: clip-v2 (also accepted: jina-clip-v2)')
    // Prerendered: before the app runs the line links to the live answer.
    await expect
      .poll(() => page.locator('[data-testid="served-status"] a').getAttribute('href'))
      .toBe('/v1/models/clip-v2')
    await appRunning(page)
    const status = page.locator('[data-testid="served-status"]')
    await expect.poll(() => status.getAttribute('data-served')).toBe('true')
    expect(await status.innerText()).toContain('builtin')
    for (const width of layoutWidths) expect(await overflowAt(page, width), `${width} px`).toBeUndefined()
    expect(problems.problems).toEqual([])
    await page.close()
  })

  it('reads it in German too', async () => {
    const page = await browser.newPage()
    await page.goto(`${baseUrl}/de/models/embeddings-v3`)
    await expect.poll(() => page.locator('p', { hasText: 'API-ID für' }).innerText()).toContain('embeddings-v3')
    await page.close()
  })

  it('the Models tab lists each model with its API id, aliases and serving engine, light and dark, from 320 px', async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      const context = await browser.newContext({ colorScheme })
      const page = await context.newPage()
      const problems = watchPage(page, baseUrl)
      await page.goto(`${baseUrl}/api-dashboard/models`)
      await appRunning(page)
      const row = page.locator('[data-testid="models"] tr', { hasText: 'jina-embeddings-v3' })
      await expect.poll(() => row.innerText(), { timeout: 15_000 }).toContain('builtin')
      expect(await row.innerText()).toContain('embeddings-v3')
      const readerRow = page.locator('[data-testid="models"] tr', { hasText: 'Reader LM 0.5B' })
      expect(await readerRow.innerText()).toContain('—')
      for (const width of layoutWidths)
        expect(await overflowAt(page, width), `${colorScheme} ${width} px`).toBeUndefined()
      expect(problems.problems).toEqual([])
      await context.close()
    }
  })
})
