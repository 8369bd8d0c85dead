import type { Page } from 'playwright-core'
import { emulatorCode } from '../../support/auth-emulator'
import { appRunning } from './browser'

/**
 * Signs in on the sign-in form the page shows, as a visitor would: the e-mail typed unless the form already
 * holds it (after a sign-up), the password, Sign in; done once the dashboard's address is reached.
 */
export async function submitSignIn(page: Page, email: string, password: string): Promise<void> {
  const form = page.getByTestId('sign-in-form')
  if ((await form.getByLabel('E-mail').inputValue()) !== email) await form.getByLabel('E-mail').fill(email)
  await form.getByLabel('Password').fill(password)
  await form.getByRole('button', { name: 'Sign in' }).click()
  await page.waitForURL(/\/api-dashboard/)
}

/**
 * Signs a new account up on the sign-up form, in, and verifies its address with the code the Auth emulator
 * holds: done on the Account tab, the address shown as verified.
 */
export async function signUpVerified(
  page: Page,
  { baseUrl, emulator }: { baseUrl: string; emulator: Parameters<typeof emulatorCode>[0] },
  email: string,
  password: string,
): Promise<void> {
  await page.goto(`${baseUrl}/sign-in?mode=sign-up`)
  await appRunning(page)
  const signUp = page.getByTestId('sign-up-form')
  await signUp.getByLabel('E-mail').fill(email)
  await signUp.getByLabel('Password').fill(password)
  await signUp.getByRole('button', { name: 'Create account' }).click()
  await page.getByTestId('sign-up-continue').click()
  await submitSignIn(page, email, password)
  await page.waitForURL(/\/api-dashboard\/account/)
  await page.getByTestId('verification-code').fill((await emulatorCode(emulator, email, 'VERIFY_EMAIL')).oobCode)
  await page.getByTestId('verify-email').click()
  await page.getByTestId('email-verified').waitFor()
}
