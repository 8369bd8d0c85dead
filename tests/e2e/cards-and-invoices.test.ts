import AxeBuilder from '@axe-core/playwright'
import { readFile } from 'node:fs/promises'
import type { Page } from 'playwright-core'
import { extractText, getDocumentProxy } from 'unpdf'
import { describe, expect, it } from 'vitest'
import { keyFrom } from '../support/trial-key'
import { wcagTags } from './support/axe'
import { appRunning, contextWithStore, watchPage, useServedBrowser } from './support/browser'
import { holdRequests } from './support/hold-requests'
import { layoutWidths, overflowAt } from './support/overflow'
import { paySandboxCheckout, walletBalance } from './support/sandbox-checkout'
import { serverFnId } from './support/server-fn-id'

/** Its own server whose public address is its real one: the sandbox's checkout page is a page of it. */
const { browser, server } = useServedBrowser()

/** The error a form field announces: the element its control is described by. */
const problemOf = (page: Page, testId: string) =>
  page.getByTestId(testId).evaluate((control) =>
    (control.getAttribute('aria-describedby') ?? '')
      .split(' ')
      .map((id) => document.getElementById(id)?.textContent ?? '')
      .join(' ')
      .trim(),
  )

const balanceOf = (apiKey: string) => walletBalance(server.baseUrl, apiKey)
const submitSandboxCard = (page: Page) => paySandboxCheckout(page, 'saver@example.com')

/**
 * Saves the auto-recharge form with its "save a card" button and waits for the sandbox's checkout; a refusal the
 * form shows instead fails at once with its words, rather than as a wait for a page that will not come.
 */
async function saveCardForRecharge(page: Page) {
  await page.getByTestId('save-card-recharge').click()
  const refused = page.getByTestId('recharge-error')
  await Promise.race([
    page.waitForURL(/\/sandbox-checkout\/cs_test_/),
    refused.waitFor({ timeout: 30_000 }).then(async () => {
      throw new Error(`the form refused the save: ${await refused.textContent()}`)
    }),
  ])
}

describe('a card saved without buying', () => {
  it('saves a card on a checkout that charges nothing and turns auto-recharge on with it', async () => {
    const apiKey = await keyFrom(server.baseUrl)
    const context = await contextWithStore(browser, { apiKey }, { viewport: { width: 390, height: 860 } })
    const page = await context.newPage()
    const { problems } = watchPage(page, server.baseUrl)
    const start = await balanceOf(apiKey)
    // With no key cookie the browser reads the settings and the packs itself; the packs come last here.
    const packsRead = await holdRequests(
      page,
      `*/_serverFn/${serverFnId('catalogue.functions', 'fetchProducts')}*`,
      /./,
    )
    packsRead.holding = true
    const statusFn = serverFnId('payments.functions', 'fetchRechargeStatus')
    const statusRead = page.waitForResponse((response) => response.url().includes(statusFn))

    await page.goto(`${server.baseUrl}/api-dashboard/auto-recharge`)
    await appRunning(page)
    await statusRead
    await expect.poll(() => packsRead.held).toBe(1)
    // Two frames for React to draw what it has; a form drawn without the packs would answer "Choose a pack".
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))))
    expect(await page.getByTestId('save-card-recharge').count()).toBe(0)
    await packsRead.release()
    await page.getByTestId('recharge-status').waitFor()
    await page.getByTestId('recharge-threshold').fill('1000')
    await saveCardForRecharge(page)
    await appRunning(page)
    // The page says what happens: a card is saved, nothing is charged, and the button says so too.
    await page.getByTestId('sandbox-pay').waitFor()
    expect(await page.getByTestId('sandbox-amount').textContent()).toBe('Save a card for auto-recharge')
    expect(await page.getByTestId('sandbox-pay').textContent()).toBe('Save the card (test mode)')
    await submitSandboxCard(page)

    await page.getByTestId('card-saved').waitFor()
    expect(await page.getByTestId('card-saved').textContent()).toContain('4242')
    await expect
      .poll(() => page.getByTestId('recharge-status').getAttribute('data-enabled'), { timeout: 10_000 })
      .toBe('true')
    expect(await page.getByTestId('recharge-status').textContent()).toContain('4242')
    expect(await balanceOf(apiKey)).toBe(start)
    await page.goto(`${server.baseUrl}/api-dashboard/billing`)
    await page.getByTestId('billing-details').waitFor()
    await expect.poll(() => page.getByText('No purchases yet', { exact: false }).count()).toBeGreaterThan(0)
    expect(problems).toEqual([])
    await context.close()
  })
})

describe('receipts and invoices', () => {
  it('shows the card on the receipt, refuses billing details in plain words, and downloads the invoice as a PDF', async () => {
    const apiKey = await keyFrom(server.baseUrl)
    const context = await contextWithStore(browser, { apiKey }, { viewport: { width: 1280, height: 900 } })
    const page = await context.newPage()
    const { problems } = watchPage(page, server.baseUrl)
    await page.goto(`${server.baseUrl}/api-dashboard/billing`)
    await appRunning(page)
    await page.locator('[data-price-id=price_tokens_1b]').getByTestId('buy-pack').click()
    await submitSandboxCard(page)
    await page.getByTestId('checkout-paid').waitFor()

    await page.getByTestId('billing-name').fill('Иван')
    await page.getByTestId('save-billing-details').click()
    expect(await problemOf(page, 'billing-name')).toBe(
      'Use Latin letters, digits and punctuation: the invoice cannot print other scripts.',
    )
    expect(await problemOf(page, 'billing-address')).toBe('Enter the postal address.')
    await page.getByTestId('billing-name').fill('Ada Lovelace Ltd')
    await page.getByTestId('billing-address').fill('12 St James’s Square\nLondon SW1Y 4JH\nUnited Kingdom')
    await page.getByTestId('billing-tax-id').fill('GB123456789')
    await page.getByTestId('save-billing-details').click()
    await page.getByText('Billing details saved.').waitFor()

    await page.getByTestId('open-receipt').click()
    const receipt = page.getByTestId('receipt')
    expect(await receipt.textContent()).toContain('Visa ending 4242')
    const number = /INV-\d{6}/.exec((await receipt.textContent()) ?? '')?.[0]
    expect(number).toBeDefined()
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('download-invoice').click()])
    expect(download.suggestedFilename()).toBe(`${number}.pdf`)
    const bytes = await readFile((await download.path())!)
    const { text } = await extractText(await getDocumentProxy(new Uint8Array(bytes)), { mergePages: true })
    for (const expected of [
      number!,
      'Ada Lovelace Ltd',
      'London SW1Y 4JH',
      'GB123456789',
      '$50.00',
      'Visa ending 4242',
    ])
      expect(text).toContain(expected)
    expect(problems).toEqual([])
    await context.close()
  })

  it('fits the Billing and Auto-recharge tabs, the setup-mode checkout and an open receipt on a phone, light and dark, and passes axe', async () => {
    const apiKey = await keyFrom(server.baseUrl)
    const failures: string[] = []
    for (const [locale, scheme, tab] of [
      ['ja', 'dark', 'billing'],
      ['de', 'light', 'auto-recharge'],
    ] as const) {
      const context = await contextWithStore(
        browser,
        { apiKey, settings: { darkMode: scheme === 'dark' } },
        { colorScheme: scheme },
      )
      const page = await context.newPage()
      await page.goto(`${server.baseUrl}/${locale}/api-dashboard/${tab}`)
      await appRunning(page)
      await page.getByTestId(tab === 'billing' ? 'save-billing-details' : 'save-card-recharge').waitFor()
      for (const width of layoutWidths) {
        const overflow = await overflowAt(page, width)
        if (overflow) failures.push(`${locale} ${scheme} ${tab} at ${width}: ${overflow}`)
      }
      const { violations } = await new AxeBuilder({ page }).withTags(wcagTags).analyze()
      for (const v of violations)
        failures.push(`${locale} ${scheme} ${tab}: axe ${v.id} at ${v.nodes[0]?.target.join(' ')}`)
      await context.close()
    }
    // The same key (a server issues an address only a few trial keys): the setup page, then a receipt.
    failures.push(...(await setupPageAndReceipt(apiKey)))
    expect(failures).toEqual([])
  })
})

/** The setup-mode checkout and, after a purchase, its open receipt: what overflows or fails axe. */
async function setupPageAndReceipt(apiKey: string): Promise<string[]> {
  const failures: string[] = []
  for (const [locale, scheme] of [
    ['ru', 'dark'],
    ['fr', 'light'],
  ] as const) {
    const context = await contextWithStore(
      browser,
      { apiKey, settings: { darkMode: scheme === 'dark' } },
      { colorScheme: scheme, viewport: { width: 320, height: 800 } },
    )
    const page = await context.newPage()
    await page.goto(`${server.baseUrl}/${locale}/api-dashboard/auto-recharge`)
    await appRunning(page)
    await saveCardForRecharge(page)
    await appRunning(page)
    await page.getByTestId('sandbox-pay').waitFor()
    const check = async (what: string) => {
      for (const width of layoutWidths) {
        const overflow = await overflowAt(page, width)
        if (overflow) failures.push(`${locale} ${scheme} ${what} at ${width}: ${overflow}`)
      }
      const { violations } = await new AxeBuilder({ page }).withTags(wcagTags).analyze()
      for (const v of violations)
        failures.push(`${locale} ${scheme} ${what}: axe ${v.id} at ${v.nodes[0]?.target.join(' ')}`)
    }
    await check('setup checkout')
    if (locale === 'fr') {
      await page.goto(`${server.baseUrl}/${locale}/api-dashboard/billing`)
      await appRunning(page)
      await page.locator('[data-price-id=price_tokens_1b]').getByTestId('buy-pack').click()
      await submitSandboxCard(page)
      await page.locator('[data-testid=open-receipt]:visible').first().click()
      await page.getByTestId('download-invoice').waitFor()
      await check('receipt')
    }
    await context.close()
  }
  return failures
}
