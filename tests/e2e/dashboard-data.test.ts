import AxeBuilder from '@axe-core/playwright'
import { readFile } from 'node:fs/promises'
import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, inject, it } from 'vitest'
import { wcagTags } from './support/axe'
import { appRunning, contextWithStore, watchPage, useBrowser } from './support/browser'
import { layoutWidths, overflowAt } from './support/overflow'
import { keyFrom } from '../support/trial-key'

const baseUrl = inject('baseUrl')

/** A real API call with the key, as a developer's code makes it. */
async function embed(apiKey: string, body: unknown, requestId: string): Promise<number> {
  const response = await fetch(`${baseUrl}/v1/embeddings`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', 'x-request-id': requestId },
    body: JSON.stringify(body),
  })
  await response.arrayBuffer()
  return response.status
}

/** The table each tab shows once its data arrived. */
const tableOf: Record<string, string> = { requests: 'requests', usage: 'summary-by-model', audit: 'audit' }

describe('the Requests, Usage and Audit tabs', () => {
  const browser = useBrowser()
  let apiKey: string
  const run = Date.now().toString(36)
  const answered = `e2e-answered-${run}`
  const refused = `e2e-refused-${run}`
  beforeAll(async () => {
    apiKey = await keyFrom(baseUrl)
    expect(
      await embed(apiKey, { model: 'embeddings-v3', input: ['a sentence nobody should see again'] }, answered),
    ).toBe(200)
    expect(await embed(apiKey, { model: 'embeddings-v3', input: 'not a list', dimensions: 2 }, refused)).toBe(422)
  })

  async function requestsTab(
    locale = '',
    scheme: 'light' | 'dark' = 'light',
    tab = 'requests',
  ): Promise<{ page: Page; problems: string[] }> {
    const context = await contextWithStore(
      browser,
      { apiKey, settings: { darkMode: scheme === 'dark' } },
      { viewport: { width: 1280, height: 900 }, colorScheme: scheme, acceptDownloads: true },
    )
    const page = await context.newPage()
    const { problems } = watchPage(page, baseUrl)
    await page.goto(`${baseUrl}${locale}/api-dashboard/${tab}`)
    await appRunning(page)
    await page.locator(`[data-testid=${tableOf[tab]}] tbody tr`).first().waitFor({ timeout: 30_000 })
    return { page, problems }
  }

  it('lists the real API calls, answered and refused, filters them, finds one by id and exports them', async () => {
    const { page, problems } = await requestsTab()
    const rows = page.locator('[data-testid=requests] tbody tr')
    await expect.poll(() => rows.count()).toBe(2)
    expect(await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-status')))).toEqual(['422', '200'])
    const text = await page.getByTestId('requests').textContent()
    expect(text).toContain(answered)
    expect(text).toContain('embeddings-v3')
    expect(text).not.toContain('nobody should see')

    await page.getByTestId('filter-status').selectOption('2xx')
    await page.getByTestId('apply-filters').click()
    await expect.poll(() => rows.count()).toBe(1)
    expect(await rows.first().getAttribute('data-status')).toBe('200')

    await page.getByTestId('filter-status').selectOption('')
    await page.getByTestId('filter-request-id').fill(refused)
    await page.getByTestId('apply-filters').click()
    await expect.poll(() => rows.first().getAttribute('data-status')).toBe('422')
    expect(await rows.count()).toBe(1)

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('export-requests-csv').click(),
    ])
    const csv = await readFile((await download.path())!, 'utf8')
    expect(csv.split('\r\n')[0]).toContain('request_id')
    expect(csv).toContain(refused)
    expect(csv).not.toContain(answered)
    expect(problems).toEqual([])
    await page.context().close()
  })

  it('shows the calls in Usage: requests answered and refused, tokens, and a balance bar with a stated scale', async () => {
    const { page, problems } = await requestsTab('', 'light', 'usage')
    await expect.poll(() => page.getByTestId('summary-requests').textContent()).toBe('1')
    const byModel = await page.getByTestId('summary-by-model').textContent()
    expect(byModel).toContain('embeddings-v3')
    const balance = page.getByTestId('summary-balance')
    expect(await balance.getAttribute('data-basis')).toBe('largest_balance')
    expect(Number(await balance.getAttribute('data-scale'))).toBe(10_000_000)
    expect(await page.getByTestId('summary-price').textContent()).toContain('free pack')
    expect(problems).toEqual([])
    await page.context().close()
  })

  it('shows the key taken in Audit, with its address and request id, and exports it', async () => {
    const { page, problems } = await requestsTab('', 'light', 'audit')
    const rows = page.locator('[data-testid=audit] tbody tr')
    expect(await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-action')))).toEqual(['key.created'])
    expect(await rows.first().textContent()).toContain('visitor')
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-audit-json').click()])
    const events = JSON.parse(await readFile((await download.path())!, 'utf8'))
    expect(events).toEqual([expect.objectContaining({ action: 'key.created', actor: 'visitor' })])
    expect(events[0].request_id).toBeTruthy()
    expect(problems).toEqual([])
    await page.context().close()
  })

  it('fits 320 px to desktop in light and dark, in German and Japanese, and passes axe', async () => {
    const failures: string[] = []
    for (const [locale, scheme, tab] of [
      ['', 'light', 'requests'],
      ['/de', 'dark', 'requests'],
      ['/ja', 'light', 'requests'],
      ['/de', 'light', 'usage'],
      ['/ru', 'dark', 'usage'],
      ['/fr', 'dark', 'audit'],
      ['/zh-CN', 'light', 'audit'],
    ] as const) {
      const { page } = await requestsTab(locale, scheme, tab)
      for (const width of [...layoutWidths, 1280]) {
        const overflow = await overflowAt(page, width)
        if (overflow) failures.push(`${tab} ${locale || 'en'} ${scheme} at ${width}: ${overflow}`)
      }
      const { violations } = await new AxeBuilder({ page }).withTags(wcagTags).analyze()
      for (const v of violations)
        failures.push(`${tab} ${locale || 'en'} ${scheme}: axe ${v.id} at ${v.nodes[0]?.target.join(' ')}`)
      await page.context().close()
    }
    expect(failures).toEqual([])
  })
})
