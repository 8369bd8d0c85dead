import type { Page } from 'playwright-core'
import { appRunning } from './browser'

/** A key's balance as the served build at `baseUrl` reports it to the browser (its wallet's total). */
export async function walletBalance(baseUrl: string, apiKey: string): Promise<number> {
  const answer = await fetch(`${baseUrl}/api/v1/api_key/fe_user?api_key=${apiKey}`)
  return ((await answer.json()) as { wallet: { total_balance: number } }).wallet.total_balance
}

/**
 * Pays the sandbox checkout the page is on with the test card that succeeds (the e-mail field filled with
 * `email` if the form asks for one), and waits to be back on the dashboard.
 */
export async function paySandboxCheckout(page: Page, email: string): Promise<void> {
  await page.waitForURL(/\/sandbox-checkout\/cs_test_/)
  await appRunning(page)
  await page.getByTestId('sandbox-banner').waitFor()
  // The form, with or without its e-mail field, shows once the session has loaded: look for the field after that.
  await page.getByTestId('sandbox-pay').waitFor()
  const field = page.getByTestId('sandbox-email')
  if (await field.count()) await field.fill(email)
  await page.getByTestId('test-card-succeeds').click()
  await page.getByTestId('sandbox-pay').click()
  await page.waitForURL(/\/api-dashboard\/.+checkout=success/)
}
