import type { Page } from 'playwright-core'
import { describe, expect, inject, it } from 'vitest'
import { appRunning, contextWithStore, watchPage, useBrowser } from './support/browser'

const baseUrl = inject('baseUrl')
const usageToken = 'e2e-usage-service-token-0123456789'

async function recordUsage(apiKey: string, product: string, tokens: number, id: string) {
  const response = await fetch(`${baseUrl}/internal/v1/usage`, {
    method: 'POST',
    headers: { authorization: `Bearer ${usageToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ api_key: apiKey, product, model: `${product}-v3`, tokens, usage_event_id: id }),
  })
  expect(response.status).toBeLessThan(300)
}

const balanceOf = async (page: Page) => Number(await page.getByTestId('balance').getAttribute('data-value'))

describe('a developer with a trial key', () => {
  const browser = useBrowser()
  const problems: string[][] = []
  /** Calls the pages made to the REST API; the dashboard uses server functions, so there must be none. */
  const restCalls: string[] = []
  /** Every address the pages asked for (documents, server functions, assets): logs and proxies keep them. */
  const requestUrls: string[] = []

  async function dashboard(): Promise<Page> {
    const context = await contextWithStore(browser, undefined, { viewport: { width: 1280, height: 900 } })
    const page = await context.newPage()
    problems.push(watchPage(page, baseUrl).problems)
    page.on('request', (request) => {
      requestUrls.push(request.url())
      // The key screens use server functions; the account service is REST by the spec (bearer ID tokens).
      const path = new URL(request.url()).pathname
      if (path.startsWith('/api/') && !path.startsWith('/api/v1/account/'))
        restCalls.push(`${request.method()} ${request.url()}`)
    })
    await page.goto(`${baseUrl}/api-dashboard`)
    await appRunning(page)
    return page
  }

  async function getTrialKey(page: Page): Promise<string> {
    await page.getByRole('checkbox', { name: "I'm not a robot" }).click()
    await page.locator('[data-testid=captcha][data-state=loaded]').waitFor({ timeout: 60_000 })
    await page.getByTestId('get-trial-key').click()
    await page.getByTestId('balance').waitFor({ timeout: 30_000 })
    return (await page.getByTestId('api-key').textContent())!.trim()
  }

  it('gets a key, sees usage, sets alerts and moves the balance to a second key', async () => {
    const page = await dashboard()
    const key = await getTrialKey(page)
    expect(key).toMatch(/^lds_/)
    expect(await balanceOf(page)).toBe(10_000_000)

    // The search services charge the key through the metering endpoint.
    await recordUsage(key, 'embeddings', 12_345, `journey-${Date.now()}-1`)
    await recordUsage(key, 'reranker', 2_000, `journey-${Date.now()}-2`)
    await page.getByRole('link', { name: 'Usage' }).click()
    const chart = page.getByTestId('consumption-chart')
    await chart.waitFor({ timeout: 15_000 })
    await expect.poll(() => page.getByTestId('consumption-total').textContent()).toContain('14,345')
    // Today's bar names its products and their tokens, on hover and from the keyboard alike.
    await chart.locator('[data-day]').last().hover()
    await expect.poll(() => chart.getByRole('status').textContent()).toMatch(/embeddings.*12,345.*reranker.*2,000/)
    await page.mouse.move(0, 0)
    await chart.focus()
    await page.keyboard.press('End')
    await expect.poll(() => chart.getByRole('status').textContent()).toMatch(/embeddings.*12,345/)
    const rows = page.locator('[data-testid=transactions] tbody tr')
    await expect.poll(() => rows.count()).toBe(3)
    expect(await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-type')))).toEqual([
      'consume',
      'consume',
      'trial',
    ])

    // The form refuses before saving, in plain words: a fourth threshold cannot be added, a wrong amount is named
    // as it is typed, and amounts are grouped in the interface language.
    await page.getByRole('link', { name: 'Notifications' }).click()
    await page.getByTestId('threshold-1').fill('5000000')
    for (const [n, value] of [
      [2, '1000000'],
      [3, '100000'],
    ] as const) {
      await page.getByTestId('add-threshold').click()
      await page.getByTestId(`threshold-${n}`).fill(value)
    }
    expect(await page.getByTestId('add-threshold').isDisabled()).toBe(true)
    await page.getByTestId('thresholds-full').waitFor()
    expect(await page.getByTestId('threshold-4').count()).toBe(0)
    await page.getByTestId('threshold-3').fill('100k')
    expect(await page.getByTestId('thresholds-error').textContent()).toBe('Each threshold must be a number')
    await page.getByTestId('threshold-3').fill('100000')
    await page.getByTestId('thresholds-error').waitFor({ state: 'detached' })
    await page.getByTestId('notification-email').fill('alerts@example.com')
    expect(await page.getByTestId('threshold-1').inputValue()).toBe('5,000,000')
    await page.getByTestId('save-notifications').click()
    await page.getByText('Balance alerts saved').waitFor()

    // A second developer gets their own key; the first moves everything to it.
    const other = await dashboard()
    const receiver = await getTrialKey(other)
    await page.getByRole('link', { name: 'Transfer balance' }).click()
    await page.getByTestId('transfer-receiver').fill(receiver)
    await page.getByTestId('transfer-review').click()
    await page.getByTestId('transfer-confirm').waitFor()
    // The dialog says what goes with the tokens and what stays with the revoked key, before anything moves.
    const moves = page.getByTestId('transfer-moves')
    await moves.waitFor()
    expect(await moves.textContent()).toContain('Trained classifiers, with the same ids')
    expect(await moves.textContent()).toContain('Balance alerts, unless the receiving key has alerts of its own')
    expect(await page.getByTestId('transfer-stays').textContent()).toMatch(/auto-recharge setting \(off until/)
    await page.getByTestId('transfer-submit').click()
    await page.getByTestId('transfer-result').waitFor({ timeout: 60_000 })

    const sender = await fetch(`${baseUrl}/api/v1/api_key/fe_user?api_key=${encodeURIComponent(key)}`)
    expect(sender.status).toBe(401)
    const info = (await (
      await fetch(`${baseUrl}/api/v1/api_key/fe_user?api_key=${encodeURIComponent(receiver)}`)
    ).json()) as { wallet: { total_balance: number } }
    expect(info.wallet.total_balance).toBe(10_000_000 + 10_000_000 - 14_345)

    // A third browser adopts the receiving key by pasting it.
    const third = await dashboard()
    await third.getByTestId('paste-key-input').fill(receiver)
    await third.getByTestId('paste-key-submit').click()
    await third.getByTestId('balance').waitFor({ timeout: 30_000 })
    expect(await balanceOf(third)).toBe(info.wallet.total_balance)

    expect(restCalls).toEqual([])
    // Keys travel in bodies and cookies only, never in an address a log could keep (raw or encoded).
    const leaks = requestUrls.filter((url) =>
      [key, receiver].some((k) => url.includes(k) || url.includes(encodeURIComponent(k)) || url.includes(k.slice(4))),
    )
    expect(requestUrls.length).toBeGreaterThan(10)
    expect(leaks).toEqual([])
    // The browser's own 401/429 resource messages are the only console lines allowed.
    const unexpected = problems.flat().filter((p) => !/Failed to load resource/.test(p))
    expect(unexpected).toEqual([])
  })
})
