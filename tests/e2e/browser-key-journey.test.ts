import type { Page } from 'playwright-core'
import { describe, expect, inject, it } from 'vitest'
import { axeViolations } from './support/axe'
import { appRunning, contextWithStore, watchPage, useBrowser } from './support/browser'
import { submitSignIn } from './support/sign-in'
import { keyFrom } from '../support/trial-key'

const baseUrl = inject('baseUrl')
const emulator = inject('authEmulator')
const password = 'correct horse 42'

const browser = useBrowser()

/** Problems a visitor would notice, leaving out the emulator's own address (the identity service's stand-in). */
const realProblems = (problems: string[]) => problems.filter((problem) => !problem.includes(emulator.url))

async function signUpAndIn(page: Page, email: string) {
  await page.getByTestId('sign-in-link').first().click()
  await page.waitForURL(/\/sign-in/)
  await page.getByTestId('auth-mode-sign-up').click()
  const signUp = page.getByTestId('sign-up-form')
  await signUp.getByLabel('E-mail').fill(email)
  await signUp.getByLabel('Password').fill(password)
  await signUp.getByRole('button', { name: 'Create account' }).click()
  await page.getByTestId('sign-up-continue').click()
  await signIn(page, email)
}

async function signIn(page: Page, email: string) {
  await submitSignIn(page, email, password)
  await page.getByTestId('account-bar').getByTestId('sign-out').waitFor()
}

async function settledAxeViolations(page: Page, selector: string): Promise<string[]> {
  // Measured once the dialog's opening fade (spec §9) is over: mid-fade its text is faded on purpose.
  await page.locator(selector).evaluate((element) =>
    // A fade replaced by another rejects its `finished`: either way it is over.
    Promise.all(element.getAnimations({ subtree: true }).map((animation) => animation.finished.catch(() => undefined))),
  )
  return axeViolations(page, selector)
}

async function embed(apiKey: string): Promise<number> {
  const response = await fetch(`${baseUrl}/v1/embeddings`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'embeddings-v3', input: ['a key that was never lost'] }),
  })
  return response.status
}

describe("the browser's key is never lost at sign-up and sign-out", () => {
  it('offers the trial key at sign-up, adds it in one click, and finds it in the account after signing in again', async () => {
    const email = `keep-${Date.now()}@example.com`
    const context = await contextWithStore(browser, undefined, { viewport: { width: 390, height: 844 } })
    const page = await context.newPage()
    const { problems } = watchPage(page, baseUrl)
    await page.goto(`${baseUrl}/api-dashboard`)
    await appRunning(page)
    await page.getByRole('checkbox', { name: "I'm not a robot" }).click()
    await page.locator('[data-testid=captcha][data-state=loaded]').waitFor({ timeout: 60_000 })
    await page.getByTestId('get-trial-key').click()
    await page.getByTestId('balance').waitFor({ timeout: 30_000 })
    const key = (await page.getByTestId('api-key').textContent())!.trim()
    expect(key).toMatch(/^lds_/)

    await signUpAndIn(page, email)
    // Whatever tab sign-in lands on, the key of this browser is offered, named by its ends and balance.
    const offer = page.getByTestId('browser-key-offer')
    await offer.waitFor()
    expect(await offer.textContent()).toContain(key.slice(-4))
    expect(await offer.textContent()).toContain('10,000,000')
    expect(await settledAxeViolations(page, '[data-testid=browser-key-offer]')).toEqual([])
    await offer.getByTestId('claim-browser-key').click()
    await page.getByText('The key of this browser is now in your account.').waitFor({ timeout: 60_000 })
    await offer.waitFor({ state: 'detached' })

    // Signing out warns of nothing now: the account holds the key.
    await page.getByTestId('sign-out').click()
    expect(await page.getByTestId('unclaimed-key-warning').count()).toBe(0)
    await page.getByTestId('confirm-sign-out').click()
    await page.getByTestId('sign-in-link').first().waitFor()

    await page.getByTestId('sign-in-link').first().click()
    await page.waitForURL(/\/sign-in/)
    await signIn(page, email)
    await page.goto(`${baseUrl}/api-dashboard`)
    await page.getByTestId('account-key').first().waitFor({ timeout: 20_000 })
    expect(await page.getByTestId('account-key').count()).toBe(1)
    expect(await page.getByTestId('account-key').first().textContent()).toContain(key.slice(-4))
    await page.getByTestId('use-account-key').click()
    await page.getByText('In use here').waitFor()
    await page.getByTestId('balance').waitFor()
    expect(await page.getByTestId('browser-key-offer').count()).toBe(0)
    // And the key still works for the APIs.
    expect(await embed(key)).toBe(200)
    expect(realProblems(problems)).toEqual([])
    await context.close()
  })

  it('names a key the account lacks in the sign-out dialog; signing out without it takes it off this browser only', async () => {
    const email = `decline-${Date.now()}@example.com`
    const key = await keyFrom(baseUrl)
    for (const dark of [false, true]) {
      const context = await contextWithStore(
        browser,
        { apiKey: key, settings: { darkMode: dark } },
        { viewport: { width: 320, height: 700 } },
      )
      const page = await context.newPage()
      const { problems } = watchPage(page, baseUrl)
      await page.goto(`${baseUrl}/api-dashboard`)
      await appRunning(page)
      await page.getByTestId('balance').waitFor({ timeout: 30_000 })
      if (dark) {
        await page.getByTestId('sign-in-link').first().click()
        await page.waitForURL(/\/sign-in/)
        await signIn(page, email)
      } else await signUpAndIn(page, email)
      await page.getByTestId('browser-key-offer').waitFor()
      await page.getByTestId('dismiss-browser-key-offer').click()
      await page.getByTestId('browser-key-offer').waitFor({ state: 'detached' })

      await page.getByTestId('sign-out').click()
      const warning = page.getByTestId('unclaimed-key-warning')
      await warning.waitFor({ timeout: 20_000 })
      expect(await warning.textContent()).toContain(key.slice(-4))
      expect(await settledAxeViolations(page, '[role=dialog]')).toEqual([])
      await page.getByTestId('sign-out-without-key').click()
      await page.getByTestId('sign-in-link').first().waitFor()
      expect(await page.getByTestId('api-key').count()).toBe(0)
      expect(realProblems(problems)).toEqual([])
      await context.close()
    }
    // Declined twice, the key is in no account, and still works for whoever saved it.
    expect(await embed(key)).toBe(200)
  })
})
