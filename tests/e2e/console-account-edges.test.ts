import type { Page } from 'playwright-core'
import { describe, expect, inject, it } from 'vitest'
import { appRunning, contextWithStore, watchPage, useBrowser } from './support/browser'
import { onScreen } from './support/on-screen'
import { overflowAt } from './support/overflow'
import { signUpVerified } from './support/sign-in'

const baseUrl = inject('baseUrl')
const emulator = inject('authEmulator')
const password = 'correct horse 42'

const browser = useBrowser()

/** Signs a new account up and in and verifies it, on the Account tab. */
const signedUp = (page: Page) =>
  signUpVerified(page, { baseUrl, emulator }, `edges-${Date.now()}@example.com`, password)

describe("the console's rough edges for a signed-in owner (issue 42)", () => {
  it("says a new key can be shown again, and the key card's Show key shows it; the audit says what changed in words, its columns on screen", async () => {
    const context = await contextWithStore(browser, undefined, { viewport: { width: 1280, height: 900 } })
    const page = await context.newPage()
    const { problems } = watchPage(page, baseUrl)
    await signedUp(page)
    await page.getByRole('link', { name: 'API key' }).click()
    await page.locator('#new-key-name').fill('edges')
    await page
      .getByTestId('create-account-key')
      .getByRole('button', { name: /create key/i })
      .click()
    const shown = page.getByTestId('new-key-once')
    await shown.waitFor({ timeout: 20_000 })
    const apiKey = (await shown.getByTestId('new-key-value').textContent())!.trim()
    const words = (await shown.textContent())!
    expect(words).not.toContain('only this once')
    expect(words).toContain('you can show it again on any device where you sign in')
    // Made, not put into use: the dashboard still shows no key until its owner chooses this one.
    expect(await page.getByTestId('api-key').count()).toBe(0)
    await shown.getByTestId('use-new-key').click()
    await page.getByText('This browser now uses edges.').waitFor()
    await shown.getByTestId('new-key-done').click()
    // The words hold: the key card shows the same key again.
    await page.getByRole('button', { name: 'Show key' }).click()
    await expect.poll(() => page.getByTestId('api-key').textContent()).toBe(apiKey)

    // Controls with a daily cap and no address ranges: recorded in the audit log.
    const row = page.getByTestId('account-key').filter({ hasText: 'edges' })
    await row.getByTestId('open-key-controls').click()
    const form = row.getByTestId('key-controls')
    await form.waitFor()
    await form.getByTestId('daily-cap').fill('100')
    await form.getByTestId('save-controls').click()
    await page.getByText('Controls of edges saved.').waitFor()

    await page.getByRole('link', { name: 'Audit' }).click()
    const changed = page.locator('[data-testid=audit] tbody tr[data-action="key.controls_changed"]')
    await changed.waitFor()
    const details = (await changed.getByTestId('audit-details').textContent())!
    expect(details).toContain('Daily cap: 100')
    expect(details).toContain('Addresses allowed: none')
    expect(details).not.toMatch(/daily_cap|allowed_networks|_/)
    for (const width of [1280, 390]) {
      expect(await overflowAt(page, width)).toBeUndefined()
      if (width !== 1280) continue
      // Who, from which address and which request: on screen beside what changed.
      const cells = changed.locator('td')
      for (const column of [2, 3, 4]) expect(await onScreen(cells.nth(column))).toEqual({ whole: true, where: '' })
      for (const heading of await page.locator('[data-testid=audit] thead th').all())
        expect(await onScreen(heading)).toEqual({ whole: true, where: '' })
    }
    // In German too, in its own words.
    await page.goto(`${baseUrl}/de/api-dashboard/audit`)
    await appRunning(page)
    const german = page.locator('[data-testid=audit] tbody tr[data-action="key.controls_changed"]')
    await german.waitFor()
    expect(await german.getByTestId('audit-details').textContent()).toContain('Tageslimit: 100')
    expect(problems.filter((problem) => !problem.includes(emulator.url))).toEqual([])
    await context.close()
  })
})
