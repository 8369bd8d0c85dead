import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { keyFrom } from '../support/trial-key'
import { startWebFixtures, type WebFixtures } from '../support/web-fixtures'
import { appRunning, contextWithStore, useBrowser, watchPage } from './support/browser'

/**
 * The streaming demos as a visitor sees them: the answer grows while it arrives and Cancel stops it. The
 * served build has READER_ALLOW_PRIVATE_NETWORKS=true (global-setup.ts), so it reads slow pages served here
 * on loopback.
 */
const baseUrl = inject('baseUrl')
const browser = useBrowser()
let web: WebFixtures
let apiKey: string

beforeAll(async () => {
  web = await startWebFixtures()
  apiKey = await keyFrom(baseUrl)
})
afterAll(async () => {
  await web?.close()
})

async function openDemo(page: Page, path: string, name: string) {
  await page.goto(baseUrl + path, { waitUntil: 'load' })
  await appRunning(page)
  await page.locator('#demo').scrollIntoViewIfNeeded()
  await page.getByTestId(`demo-${name}`).waitFor({ timeout: 15_000 })
}

const status = (page: Page) => page.getByTestId('demo-result').getAttribute('data-status')

describe('the streaming demos', () => {
  it('reader: shows each snapshot as the page downloads, the whole page last, and the curl of the stream', async () => {
    const context = await contextWithStore(browser, undefined, { viewport: { width: 1280, height: 900 } })
    const page = await context.newPage()
    const { problems } = watchPage(page, baseUrl)
    await openDemo(page, '/reader', 'reader')
    const url = web.url('/slow?parts=5&pause=600')
    await page.getByLabel('URL to read').fill(url)
    await page.getByTestId('demo-run').click()
    // A partial page is on screen while the rest is still downloading.
    await page.locator('[data-testid=reader-result][data-live=true]').waitFor({ timeout: 10_000 })
    expect(await status(page)).toBe('running')
    const partial = (await page.getByTestId('reader-content').textContent())!
    expect(partial).not.toContain('Paragraph 40 ')
    await page.locator('[data-testid=demo-result][data-status=done]').waitFor({ timeout: 15_000 })
    expect(await page.getByTestId('reader-content').textContent()).toContain('Paragraph 40 ')
    expect(Number(await page.getByTestId('reader-result').getAttribute('data-count'))).toBeGreaterThan(1)
    expect(await page.getByTestId('reader-title').textContent()).toBe('Rerankers in practice')
    const curl = (await page.getByTestId('demo-curl').textContent())!
    expect(curl).toContain(' -N ')
    expect(curl).toContain("-H 'Accept: text/event-stream'")
    expect(curl).toContain(`"url": "${url}"`)
    expect(problems).toEqual([])
    await context.close()
  })

  it('reader: Cancel stops the stream, keeps what arrived and lets the visitor run again', async () => {
    const context = await contextWithStore(browser, undefined, { viewport: { width: 1280, height: 900 } })
    const page = await context.newPage()
    await openDemo(page, '/reader', 'reader')
    await page.getByLabel('URL to read').fill(web.url('/slow?parts=8&pause=1500'))
    await page.getByTestId('demo-run').click()
    await page.locator('[data-testid=reader-result][data-live=true]').waitFor({ timeout: 10_000 })
    await page.getByTestId('demo-cancel').click()
    await page.getByTestId('demo-cancelled').waitFor()
    expect(await status(page)).toBe('cancelled')
    expect(await page.getByTestId('reader-title').textContent()).toBe('Rerankers in practice')
    expect(await page.getByTestId('reader-content').textContent()).toContain('A first-stage search is fast')
    expect(await page.getByTestId('demo-run').isEnabled()).toBe(true)
    expect(await page.getByTestId('demo-cancel').count()).toBe(0)
    await context.close()
  })

  it('DeepSearch: streams its reasoning before the answer, and Cancel stops it mid-way', async () => {
    const context = await contextWithStore(browser, { apiKey }, { viewport: { width: 1280, height: 900 } })
    const page = await context.newPage()
    const { problems } = watchPage(page, baseUrl)
    await openDemo(page, '/deepsearch', 'deepsearch')
    // A page named in the question that takes seconds to arrive: the agent reasons while it waits.
    const slow = web.url('/slow?parts=4&pause=800')
    await page.getByLabel('Question').fill(`What nDCG@10 does the reranker reach according to ${slow} ?`)
    await page.getByTestId('demo-run').click()
    await page.locator('[data-testid=think-steps] > li').first().waitFor({ timeout: 10_000 })
    expect(await status(page)).toBe('running')
    expect(await page.getByTestId('cited-answer').count()).toBe(0)
    await page.locator('[data-testid=demo-result][data-status=done]').waitFor({ timeout: 20_000 })
    const quotes = await page.getByTestId('citation-quote').allTextContents()
    expect(quotes.join(' ')).toContain('61.9')
    expect(Number(await page.getByTestId('demo-usage').getAttribute('data-value'))).toBeGreaterThan(0)

    await page.getByLabel('Question').fill(`Summarise ${web.url('/slow?parts=6&pause=2000')}`)
    await page.getByTestId('demo-run').click()
    await page.locator('[data-testid=think-steps] > li').first().waitFor({ timeout: 10_000 })
    await page.getByTestId('demo-cancel').click()
    await page.getByTestId('demo-cancelled').waitFor()
    expect(await page.locator('[data-testid=think-steps] > li').count()).toBeGreaterThan(0)
    expect(problems).toEqual([])
    await context.close()
  })

  it('LLM-SERP: shows the pages being read while it searches, then the results page with its overview', async () => {
    const context = await contextWithStore(browser, { apiKey }, { viewport: { width: 390, height: 900 } })
    const page = await context.newPage()
    await openDemo(page, '/llm-serp-demo', 'serp')
    // Not the page the DeepSearch test read: the reader's cache would answer it at once.
    const slow = web.url('/slow?parts=4&pause=900')
    await page.getByLabel('Search').fill(`reranker nDCG@10 ${slow}`)
    await page.getByTestId('demo-run').click()
    await page.getByTestId('serp-reading').waitFor({ timeout: 10_000 })
    expect(await status(page)).toBe('running')
    await page.locator('[data-testid=demo-result][data-status=done]').waitFor({ timeout: 20_000 })
    const titles = await page.getByTestId('serp-title').allTextContents()
    expect(titles).toContain('Rerankers in practice')
    expect(await page.getByTestId('cited-answer').textContent()).toMatch(/\S/)
    await context.close()
  })

  it('a reader stream the caller leaves stops fetching the page at once, not at its timeout', async () => {
    const leaving = new AbortController()
    const response = await fetch(`${baseUrl}/r/${web.url('/stall')}`, {
      headers: { accept: 'text/event-stream', 'x-timeout': '120', 'x-no-cache': 'true' },
      signal: leaving.signal,
    })
    expect(response.status).toBe(200)
    await expect.poll(() => web.hits.some((hit) => hit.path === '/stall')).toBe(true)
    await expect.poll(() => web.openConnections()).toBe(1)
    leaving.abort()
    await expect.poll(() => web.openConnections(), { timeout: 5000 }).toBe(0)
  })
})
