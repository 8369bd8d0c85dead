import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, inject, it } from 'vitest'
import { appRunning, contextWithStore, watchPage, useBrowser } from './support/browser'

const baseUrl = inject('baseUrl')
const outbox = join(inject('dataDir'), 'outbox')
const salesMails = () => {
  try {
    return readdirSync(outbox)
      .filter((f) => f.endsWith('.eml'))
      .map((f) => readFileSync(join(outbox, f), 'utf8'))
      .filter((m) => /Ada Lovelace/.test(m))
  } catch {
    return []
  }
}

describe('contact sales', () => {
  const browser = useBrowser()

  it('explains bad input field by field, sends nothing, then delivers a good lead to sales', async () => {
    const context = await contextWithStore(browser, undefined, { viewport: { width: 1280, height: 1000 } })
    const page = await context.newPage()
    const { problems } = watchPage(page, baseUrl)
    await page.goto(`${baseUrl}/contact-sales`)
    await appRunning(page)

    await page.getByRole('button', { name: 'Send message' }).click()
    expect(await page.locator('[id$="-error"]').count()).toBe(4)

    await page.getByLabel('Name').fill('Ada Lovelace')
    await page.getByLabel('Work e-mail').fill('ada@')
    await page.getByRole('textbox', { name: 'Company' }).fill('Analytical Engines Ltd')
    await page.getByLabel('How can we help?').fill('We need embeddings for 40 million documents in 12 languages.')
    await page.getByRole('button', { name: 'Send message' }).click()
    expect(await page.locator('[id$="-error"]').allTextContents()).toHaveLength(1)
    expect(salesMails()).toEqual([])

    await page.getByLabel('Work e-mail').fill('ada@engines.example')
    await page.getByRole('button', { name: 'Send message' }).click()
    await page.getByText('Thank you, we got your message').waitFor({ timeout: 60_000 })
    await expect.poll(() => salesMails().length, { timeout: 10_000 }).toBe(1)
    expect(salesMails()[0]).toContain('ada@engines.example')
    expect(problems).toEqual([])
    await context.close()
  })
})
