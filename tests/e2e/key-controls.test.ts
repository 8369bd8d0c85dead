import type { Page } from 'playwright-core'
import { describe, expect, inject, it } from 'vitest'
import { axeViolations } from './support/axe'
import { appRunning, contextWithStore, watchPage, useBrowser } from './support/browser'
import { overflowAt } from './support/overflow'
import { signUpVerified } from './support/sign-in'

const baseUrl = inject('baseUrl')
const emulator = inject('authEmulator')
const password = 'correct horse 42'

const browser = useBrowser()

/** Signs a new account up and in, and creates its first key (with the free pack): answers the key in full. */
async function accountWithKey(page: Page, name: string): Promise<string> {
  await signUpVerified(page, { baseUrl, emulator }, `controls-${Date.now()}@example.com`, password)
  await page.getByRole('link', { name: 'API key' }).click()
  await page.locator('#new-key-name').fill(name)
  await page
    .getByTestId('create-account-key')
    .getByRole('button', { name: /create key/i })
    .click()
  const shown = page.getByTestId('new-key-once')
  await shown.waitFor({ timeout: 20_000 })
  const apiKey = (await shown.getByTestId('new-key-value').textContent())!.trim()
  await shown.getByTestId('new-key-done').click()
  return apiKey
}

const embed = (apiKey: string) =>
  fetch(`${baseUrl}/v1/embeddings`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'embeddings-v3', input: ['a request the cap will stop'] }),
  })

describe('per-key controls in the dashboard', () => {
  it('refuses a typo in plain words, groups digits, saves a daily cap, and the API then refuses the key with 402', async () => {
    const context = await contextWithStore(
      browser,
      { settings: { darkMode: true } },
      { viewport: { width: 320, height: 800 } },
    )
    const page = await context.newPage()
    const { problems } = watchPage(page, baseUrl)
    // The account and key are made at desktop width (a phone's toast would cover the key's Done button).
    await page.setViewportSize({ width: 1280, height: 900 })
    const apiKey = await accountWithKey(page, 'capped')
    expect((await embed(apiKey)).status).toBe(200)
    await page.setViewportSize({ width: 320, height: 800 })

    const row = page.getByTestId('account-key').filter({ hasText: 'capped' })
    await row.getByTestId('open-key-controls').click()
    const form = row.getByTestId('key-controls')
    await form.waitFor()
    // The request above is already counted against today.
    await expect.poll(() => form.getByTestId('controls-spent').textContent()).not.toContain('Spent today: 0 tokens')

    // A typo is named before anything is sent.
    await form.getByTestId('daily-cap').fill('ten thousand')
    await form.getByTestId('save-controls').click()
    await form.getByText('Enter the cap as a whole number of tokens, such as 1,000,000.').waitFor()
    expect((await embed(apiKey)).status).toBe(200)

    // Digits are grouped in the interface language once the field is left.
    await form.getByTestId('monthly-cap').fill('20000000')
    await form.getByTestId('monthly-cap').blur()
    expect(await form.getByTestId('monthly-cap').inputValue()).toBe('20,000,000')
    await form.getByTestId('daily-cap').fill('1')
    await form.getByTestId('address-ranges').fill('10.0.0.0/8\n::/0\n0.0.0.0/0')
    expect(await overflowAt(page, 320)).toBeUndefined()
    expect(await axeViolations(page, '[data-testid="key-controls"]')).toEqual([])
    await form.getByTestId('save-controls').click()
    await page.getByText('Controls of capped saved.').waitFor()

    const refused = await embed(apiKey)
    expect(refused.status).toBe(402)
    const { detail } = (await refused.json()) as { detail: string }
    expect(detail).toMatch(
      /^This API key's daily spending cap of 1 tokens is reached; it resets at \d{4}-\d{2}-\d{2}T00:00:00.000Z$/,
    )
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)

    // The saved controls come back as saved, and the form is as readable in the light theme.
    await page.reload()
    await appRunning(page)
    await page.getByTestId('account-key').filter({ hasText: 'capped' }).getByTestId('open-key-controls').click()
    const reloaded = page.getByTestId('key-controls')
    await reloaded.waitFor()
    await expect.poll(() => reloaded.getByTestId('daily-cap').inputValue()).toBe('1')
    expect(await reloaded.getByTestId('address-ranges').inputValue()).toBe('10.0.0.0/8\n::/0\n0.0.0.0/0')
    await page.evaluate(() => {
      document.documentElement.classList.remove('dark')
      document.documentElement.style.colorScheme = 'light'
    })
    await page.setViewportSize({ width: 1280, height: 900 })
    // The buttons' colours fade to the light theme; axe judges them once the fade is over.
    await page.evaluate(() =>
      Promise.all(document.getAnimations().map((animation) => animation.finished.catch(() => undefined))),
    )
    expect(await axeViolations(page, '[data-testid="key-controls"]')).toEqual([])
    // The identity emulator's own address is the identity service's stand-in, not a problem a visitor would see.
    expect(problems.filter((problem) => !problem.includes(emulator.url))).toEqual([])
    await context.close()
  })

  it('adds a spend limit in plain words at 320 px; the API then refuses the key with 402, and removing it lets it through', async () => {
    const context = await contextWithStore(browser, {}, { viewport: { width: 1280, height: 900 } })
    const page = await context.newPage()
    const { problems } = watchPage(page, baseUrl)
    const apiKey = await accountWithKey(page, 'limited')
    await page.setViewportSize({ width: 320, height: 800 })
    const row = page.getByTestId('account-key').filter({ hasText: 'limited' })
    await row.getByTestId('open-key-controls').click()
    const limits = row.getByTestId('spend-limits')
    await limits.getByText('No spend limits yet.').waitFor()

    await limits.getByTestId('spend-limit-amount').fill('ten')
    await limits.getByTestId('add-spend-limit').click()
    await limits.getByText('Enter an amount above 0.').waitFor()
    await limits.getByTestId('spend-limit-amount').fill('1')
    await limits.getByTestId('spend-limit-period').selectOption('day')
    await limits.getByTestId('spend-limit-alert').fill('80')
    expect(await overflowAt(page, 320)).toBeUndefined()
    await limits.getByTestId('add-spend-limit').click()
    await page.getByText('Spend limit added.').waitFor()
    const limit = limits.getByTestId('spend-limit')
    await expect.poll(() => limit.textContent()).toContain('1 tokens a day')
    expect(await limit.textContent()).toContain('Alert at 80%.')
    expect(await overflowAt(page, 320)).toBeUndefined()
    expect(await axeViolations(page, '[data-testid="spend-limits"]')).toEqual([])

    const refused = await embed(apiKey)
    expect(refused.status).toBe(402)
    const { detail } = (await refused.json()) as { detail: string }
    expect(detail).toMatch(
      /^This API key's daily spend limit of 1 tokens is reached; it resets at \d{4}-\d{2}-\d{2}T00:00:00.000Z$/,
    )

    await limit.getByTestId('remove-spend-limit').click()
    await limits.getByText('No spend limits yet.').waitFor()
    expect((await embed(apiKey)).status).toBe(200)
    expect(problems.filter((problem) => !problem.includes(emulator.url))).toEqual([])
    await context.close()
  })
})
