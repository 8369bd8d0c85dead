import AxeBuilder from '@axe-core/playwright'
import { wcagTags } from './support/axe'
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { appRunning, contextWithStore, watchPage, useServedBrowser } from './support/browser'
import { layoutWidths, overflowAt } from './support/overflow'
import { paySandboxCheckout, walletBalance } from './support/sandbox-checkout'
import { useServer } from './support/server'
import { keyFrom } from '../support/trial-key'

const usageToken = 'e2e-payments-usage-token-0123456789'

/** Its own server whose public address is its real one: the sandbox's checkout page is a page of it. */
const { browser, server } = useServedBrowser({ USAGE_SERVICE_TOKEN: usageToken })

const balanceOf = (apiKey: string, baseUrl = server.baseUrl) => walletBalance(baseUrl, apiKey)
const paySandbox = (page: Page) => paySandboxCheckout(page, 'buyer@example.com')

describe('buying tokens in the sandbox', () => {
  it('buys a pack from the Billing tab and sees the balance grow, then turns on auto-recharge and sees it fire after usage', async () => {
    const apiKey = await keyFrom(server.baseUrl)
    const context = await contextWithStore(browser, { apiKey }, { viewport: { width: 1280, height: 900 } })
    const page = await context.newPage()
    const { problems } = watchPage(page, server.baseUrl)
    const start = await balanceOf(apiKey)

    await page.goto(`${server.baseUrl}/api-dashboard/billing`)
    await appRunning(page)
    await page.locator('[data-price-id=price_tokens_1b]').getByTestId('buy-pack').click()
    await paySandbox(page)
    await page.getByTestId('checkout-paid').waitFor()
    expect(await page.getByTestId('checkout-paid').textContent()).toMatch(/1,000,000,000 tokens were added/)
    expect(await balanceOf(apiKey)).toBe(start + 1_000_000_000)
    await page.getByTestId('purchase').first().waitFor()
    expect(await page.getByTestId('purchase').count()).toBe(1)
    await page.getByTestId('open-receipt').click()
    expect(await page.getByTestId('receipt').textContent()).toMatch(/1,000,000,000 API tokens/)
    await page.keyboard.press('Escape')

    // Auto-recharge: the purchase kept its card, so the tab offers it and turns on without another checkout.
    await page.goto(`${server.baseUrl}/api-dashboard/auto-recharge`)
    await page.getByTestId('recharge-status').waitFor()
    expect(await page.getByTestId('recharge-status').getAttribute('data-enabled')).toBe('false')
    expect(await page.getByTestId('save-recharge').textContent()).toBe('Use the card ending 4242')
    const threshold = start + 1_000_000_000 - 100
    await page.getByTestId('recharge-threshold').fill(String(threshold))
    await page.getByTestId('save-recharge').click()
    await expect
      .poll(() => page.getByTestId('recharge-status').getAttribute('data-enabled'), { timeout: 10_000 })
      .toBe('true')
    expect(page.url()).toMatch(/\/api-dashboard\/auto-recharge/)
    expect(await balanceOf(apiKey)).toBe(start + 1_000_000_000)

    // Usage takes the balance below the threshold: the server charges the saved card and credits the pack.
    const usage = await fetch(`${server.baseUrl}/internal/v1/usage`, {
      method: 'POST',
      headers: { authorization: `Bearer ${usageToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        api_key: apiKey,
        product: 'embeddings',
        tokens: 500,
        usage_event_id: `e2e-${apiKey.slice(-8)}`,
      }),
    })
    expect(usage.status).toBe(200)
    await expect.poll(() => balanceOf(apiKey), { timeout: 30_000 }).toBe(start + 2_000_000_000 - 500)
    await page.reload()
    await page.getByTestId('recharge-last-attempt').waitFor()
    expect(await page.getByTestId('recharge-last-attempt').getAttribute('data-status')).toBe('succeeded')
    await page.goto(`${server.baseUrl}/api-dashboard/billing`)
    await expect.poll(() => page.getByTestId('purchase').count(), { timeout: 10_000 }).toBe(2)
    expect(problems).toEqual([])
  })

  it('says a cancelled checkout charged nothing', async () => {
    const apiKey = await keyFrom(server.baseUrl)
    const context = await contextWithStore(browser, { apiKey }, { viewport: { width: 390, height: 800 } })
    const page = await context.newPage()
    await page.goto(`${server.baseUrl}/de/api-dashboard/billing`)
    await appRunning(page)
    await page.locator('[data-price-id=price_tokens_11b]').getByTestId('buy-pack').click()
    await page.waitForURL(/\/sandbox-checkout\//)
    await appRunning(page)
    await page.getByTestId('sandbox-card').fill('4000 0000 0000 0002')
    await page.getByTestId('sandbox-email').fill('buyer@example.com')
    await page.getByTestId('sandbox-expiry').fill('12/34')
    await page.getByTestId('sandbox-cvc').fill('123')
    await page.getByTestId('sandbox-pay').click()
    await page.getByTestId('sandbox-error').waitFor()
    await page.getByTestId('sandbox-cancel').click()
    await page.waitForURL(/\/de\/api-dashboard\/billing\?checkout=cancelled/)
    await page.getByTestId('checkout-cancelled').waitFor()
    expect(await balanceOf(apiKey)).toBe(10_000_000)
  })
})

describe('the sandbox checkout page', () => {
  it('fits a phone in German and Russian, light and dark, and passes axe', async () => {
    const apiKey = await keyFrom(server.baseUrl)
    const failures: string[] = []
    for (const [locale, scheme] of [
      ['de', 'light'],
      ['ru', 'dark'],
    ] as const) {
      const created = await fetch(`${server.baseUrl}/api/v1/checkout_session`, {
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ price_id: 'price_tokens_11b' }),
      })
      const { id } = (await created.json()) as { id: string }
      const context = await contextWithStore(
        browser,
        { apiKey, settings: { darkMode: scheme === 'dark' } },
        { colorScheme: scheme },
      )
      const page = await context.newPage()
      await page.goto(`${server.baseUrl}/${locale}/sandbox-checkout/${id}`)
      await appRunning(page)
      await page.getByTestId('sandbox-pay').waitFor()
      for (const width of layoutWidths) {
        const overflow = await overflowAt(page, width)
        if (overflow) failures.push(`${locale} ${scheme} at ${width}: ${overflow}`)
      }
      const { violations } = await new AxeBuilder({ page }).withTags(wcagTags).analyze()
      for (const v of violations) failures.push(`${locale} ${scheme}: axe ${v.id} at ${v.nodes[0]?.target.join(' ')}`)
      await context.close()
    }
    expect(failures).toEqual([])
  })
})

describe('a server with no payment service (no Stripe keys, PAYMENTS_SANDBOX unset)', () => {
  const unpaid = useServer({ PAYMENTS_SANDBOX: undefined })

  it("says in the visitor's language that tokens cannot be bought here, at Buy, at auto-recharge and on a sandbox page", async () => {
    const apiKey = await keyFrom(unpaid.baseUrl)
    const context = await contextWithStore(browser, { apiKey }, { viewport: { width: 1280, height: 900 } })
    const page = await context.newPage()
    const refusal = 'Auf diesem Server können keine Tokens gekauft werden: Es ist kein Zahlungsdienst eingerichtet.'
    await page.goto(`${unpaid.baseUrl}/de/api-dashboard/billing`)
    await appRunning(page)
    await page.locator('[data-price-id=price_tokens_11b]').getByTestId('buy-pack').click()
    await page.getByText(refusal).waitFor()
    expect(page.url()).toContain('/de/api-dashboard/billing')

    await page.goto(`${unpaid.baseUrl}/de/api-dashboard/auto-recharge`)
    await page.getByTestId('recharge-threshold').fill('1000000')
    await page.getByTestId('save-recharge').click()
    await page.getByText(refusal).waitFor()

    await page.goto(`${unpaid.baseUrl}/de/sandbox-checkout/cs_test_0123456789abcdef01234567`)
    await appRunning(page)
    await page.getByTestId('sandbox-error').waitFor()
    expect(await page.getByTestId('sandbox-error').textContent()).toBe(refusal)
    expect(await balanceOf(apiKey, unpaid.baseUrl)).toBe(10_000_000)
    await context.close()
  })
})
