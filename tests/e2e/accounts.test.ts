import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { describe, expect, inject, it } from 'vitest'
import { appRunning, contextWithStore, watchPage, useBrowser } from './support/browser'
import { emulatorCode, type CodeKind } from '../support/auth-emulator'

const baseUrl = inject('baseUrl')
const emulator = inject('authEmulator')
const dataDir = inject('dataDir')
const password = 'correct horse 42'

const browser = useBrowser()

/** The code the emulator "mailed" to `email` (its REST API lists every message it would have sent). */
const codeFor = async (email: string, requestType: CodeKind) =>
  (await emulatorCode(emulator, email, requestType)).oobCode

/** The subjects of the mail the served build wrote to `to` (its outbox files, as no SMTP server is configured). */
async function outboxMailTo(to: string): Promise<string> {
  const dir = join(dataDir, 'outbox')
  const files = (await readdir(dir).catch(() => [] as string[])).filter((file) => file.endsWith('.json'))
  const mails = await Promise.all(files.map(async (file) => JSON.parse(await readFile(join(dir, file), 'utf8'))))
  return mails
    .filter((mail: { to: string }) => mail.to.toLowerCase() === to.toLowerCase())
    .map((mail: { subject: string }) => mail.subject)
    .join('\n')
}

/** Problems a visitor would notice, leaving out the emulator's own address (the identity service's stand-in). */
const realProblems = (problems: string[]) => problems.filter((problem) => !problem.includes(emulator.url))

async function accountKeyNames(page: Page): Promise<string[]> {
  return page.getByTestId('account-key-name').allTextContents()
}

async function createKey(page: Page, name: string, expected: number) {
  await page.locator('#new-key-name').fill(name)
  await page
    .getByTestId('create-account-key')
    .getByRole('button', { name: /create key/i })
    .click()
  await expect.poll(() => page.getByTestId('account-key').count(), { timeout: 20_000 }).toBe(expected)
  // The new key is shown once in full, with a copy button and a warning, until its owner says it is saved.
  const shown = page.getByTestId('new-key-once')
  expect(await shown.getByTestId('new-key-value').textContent()).toMatch(/^lds_[\w-]{32}$/)
  expect(await shown.textContent()).toContain(`${name} is ready`)
  await shown.getByTestId('copy-new-key').waitFor()
  await shown.getByTestId('new-key-done').click()
  await page.getByTestId('create-account-key').waitFor()
}

describe('an account keeps its keys across browsers', () => {
  it('signs up, verifies the e-mail, creates two keys, signs out through the dialog, and finds both keys in a fresh browser', async () => {
    const email = `e2e-${Date.now()}@example.com`
    const first = await contextWithStore(browser, undefined, { viewport: { width: 1280, height: 900 } })
    const page = await first.newPage()
    const { problems } = watchPage(page, baseUrl)

    await page.goto(`${baseUrl}/api-dashboard`)
    await appRunning(page)
    await page.getByTestId('sign-in-link').click()
    await page.waitForURL(/\/sign-in/)
    await page.getByTestId('auth-mode-sign-up').click()
    const signUp = page.getByTestId('sign-up-form')
    await signUp.getByLabel('E-mail').fill(email)
    // The policy's rules are shown and the form holds back a password that breaks them.
    await signUp.getByLabel('Password').fill('short')
    expect(await signUp.getByRole('button', { name: 'Create account' }).isDisabled()).toBe(true)
    await signUp.getByLabel('Password').fill(password)
    await signUp.getByRole('button', { name: 'Create account' }).click()

    // Sign-up says only "check your e-mail" (an address with an account is told the same); then sign in.
    await page.getByTestId('sign-up-sent').waitFor()
    const sentText = await page.getByTestId('sign-up-sent').getByRole('status').textContent()
    expect(sentText).toContain(email)
    await page.getByTestId('sign-up-continue').click()
    const signInHere = page.getByTestId('sign-in-form')
    expect(await signInHere.getByLabel('E-mail').inputValue()).toBe(email)
    await signInHere.getByLabel('Password').fill(password)
    await signInHere.getByRole('button', { name: 'Sign in' }).click()

    // A new account lands on the Account tab, which asks for the code the verification e-mail brought.
    await page.waitForURL(/\/api-dashboard\/account/)
    await page.getByTestId('verification-code').waitFor()
    await page.getByTestId('verification-code').fill(await codeFor(email, 'VERIFY_EMAIL'))
    await page.getByTestId('verify-email').click()
    await page.getByTestId('email-verified').waitFor()

    await page.getByRole('link', { name: 'API key' }).click()
    await page.getByTestId('account-keys').waitFor()
    await createKey(page, 'laptop', 1)
    await createKey(page, 'ci', 2)
    expect(await accountKeyNames(page)).toEqual(['laptop', 'ci'])

    await page.getByTestId('sign-out').click()
    await page.getByTestId('confirm-sign-out').click()
    await page.getByText('Signed out. Your keys stay in your account.').waitFor()
    await page.getByTestId('sign-in-link').waitFor()
    expect(await page.getByTestId('account-keys').count()).toBe(0)
    expect(realProblems(problems)).toEqual([])
    await first.close()

    const second = await contextWithStore(browser, undefined, { viewport: { width: 390, height: 844 } })
    const phone = await second.newPage()
    const watched = watchPage(phone, baseUrl)
    await phone.goto(`${baseUrl}/sign-in`)
    await appRunning(phone)
    const signIn = phone.getByTestId('sign-in-form')
    await signIn.getByLabel('E-mail').fill(email)
    await signIn.getByLabel('Password').fill(password)
    await signIn.getByRole('button', { name: 'Sign in' }).click()
    await phone.waitForURL(/\/api-dashboard/)
    await phone.getByTestId('account-key').nth(1).waitFor()
    expect(await accountKeyNames(phone)).toEqual(['laptop', 'ci'])
    // Either key can be taken into use on this device.
    await phone.getByTestId('account-key').nth(0).getByTestId('use-account-key').click()
    await phone.getByText('In use here').waitFor()
    expect(realProblems(watched.problems)).toEqual([])

    // Someone else signs up with the same address: the same answer on screen; its owner gets an e-mail.
    await phone.getByTestId('sign-out').click()
    await phone.getByTestId('confirm-sign-out').click()
    await phone.getByTestId('sign-in-link').waitFor()
    await phone.goto(`${baseUrl}/sign-in?mode=sign-up`)
    await appRunning(phone)
    const again = phone.getByTestId('sign-up-form')
    await again.getByLabel('E-mail').fill(email)
    await again.getByLabel('Password').fill('another password 7')
    await again.getByRole('button', { name: 'Create account' }).click()
    await phone.getByTestId('sign-up-sent').waitFor()
    expect(await phone.getByTestId('sign-up-sent').getByRole('status').textContent()).toBe(sentText)
    await expect.poll(() => outboxMailTo(email), { timeout: 20_000 }).toMatch(/someone tried to create an account/)
    await second.close()
  })

  it('sends a visitor who is not signed in from the Account tab to sign in, and refuses a wrong password readably', async () => {
    const context = await contextWithStore(browser, undefined, { viewport: { width: 320, height: 700 } })
    const page = await context.newPage()
    await page.goto(`${baseUrl}/de/api-dashboard/account`)
    await page.waitForURL(/\/de\/sign-in\?tab=account/)
    await appRunning(page)
    const form = page.getByTestId('sign-in-form')
    await form.getByLabel('E-Mail').fill('nobody@example.com')
    await form.getByLabel('Passwort').fill('wrong password 1')
    await form.getByRole('button', { name: 'Anmelden' }).click()
    await page.getByTestId('auth-error').waitFor()
    expect(await page.getByTestId('auth-error').textContent()).toMatch(/passen zu keinem Konto|gibt es kein Konto/)
    await context.close()
  })
})
