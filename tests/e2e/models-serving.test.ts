import { describe, expect, inject, it } from 'vitest'
import { appRunning, watchPage, useBrowser } from './support/browser'
import { layoutWidths, overflowAt } from './support/overflow'

/** What a developer reads on a model page and the dashboard's Models tab: the id to send, and how it is served. */
const baseUrl = inject('baseUrl')
const browser = useBrowser()

describe('serving shown to visitors', () => {
  it('a model page names the API id and aliases, then whether and with what this server serves it', async () => {
    // Prerendered: as built (and before the app runs) the line links to the live answer. Read from the HTML
    // itself: in the browser the app may already have run by the time the page is looked at.
    const html = await (await fetch(`${baseUrl}/models/clip-v2`)).text()
    expect(html).toMatch(/data-testid="served-status"[^>]*>[^<]*<a href="\/v1\/models\/clip-v2"/)
    const page = await browser.newPage()
    const problems = watchPage(page, baseUrl)
    await page.goto(`${baseUrl}/models/clip-v2`)
    const note = page.locator('p', { hasText: 'API id to send as' })
    await expect.poll(() => note.innerText()).toBe('API id to send as model: clip-v2 (also accepted: jina-clip-v2)')
    await appRunning(page)
    const status = page.locator('[data-testid="served-status"]')
    await expect.poll(() => status.getAttribute('data-served')).toBe('true')
    expect(await status.innerText()).toContain('builtin')
    // Its engine's measured quality and speed (app/features/marketing/models/engine-figures.ts).
    const figures = page.locator('[data-testid="engine-figures"]')
    await expect.poll(() => figures.innerText()).toContain('nDCG@10 0.76 in English, 0.27 in German and 0.33 in French')
    expect(await figures.innerText()).toContain('matches 63% of English paraphrases')
    for (const width of layoutWidths) expect(await overflowAt(page, width), `${width} px`).toBeUndefined()
    expect(problems.problems).toEqual([])
    await page.close()
  })

  it('reads it in German too', async () => {
    const page = await browser.newPage()
    await page.goto(`${baseUrl}/de/models/embeddings-v3`)
    await expect.poll(() => page.locator('p', { hasText: 'API-ID für' }).innerText()).toContain('embeddings-v3')
    await appRunning(page)
    await expect
      .poll(() => page.locator('[data-testid="engine-figures"]').innerText())
      .toContain('nDCG@10 0,76 auf Englisch')
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
