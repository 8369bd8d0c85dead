import type { Browser, Page } from 'playwright-core'
import { appRunning, contextWithStore } from '../../e2e/support/browser'

/**
 * The sandbox checkout at `url` open in `tabs` browser tabs at once, each filled with the test card that
 * succeeds, and their Pay buttons pressed together, as a buyer who double-submits from two windows would.
 * Resolves once every tab is back on the success page.
 */
export async function payInTabs(browser: Browser, url: string, tabs: number, successUrl: RegExp): Promise<void> {
  const context = await contextWithStore(browser)
  try {
    const pages = await Promise.all(Array.from({ length: tabs }, () => context.newPage()))
    await Promise.all(pages.map((page) => fillCheckout(page, url)))
    await Promise.all(pages.map((page) => page.getByTestId('sandbox-pay').click()))
    await Promise.all(pages.map((page) => page.waitForURL(successUrl)))
  } finally {
    await context.close()
  }
}

async function fillCheckout(page: Page, url: string): Promise<void> {
  await page.goto(url)
  await appRunning(page)
  // The form, with or without its e-mail field, shows once the session has loaded: look for the field after that.
  await page.getByTestId('sandbox-pay').waitFor()
  const email = page.getByTestId('sandbox-email')
  if (await email.count()) await email.fill('buyer@example.com')
  await page.getByTestId('test-card-succeeds').click()
}
