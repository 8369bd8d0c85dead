import { readFileSync } from 'node:fs'
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { appRunning, contextWithStore, watchPage, useServedBrowser } from './support/browser'
import { keyFrom } from '../support/trial-key'

/**
 * Its own server, whose PUBLIC_BASE_URL is its real address: a download link is signed for the API's
 * public address, and the browser follows it.
 */
const { browser, server } = useServedBrowser()

async function dashboardTab(apiKey: string, tab: string): Promise<{ page: Page; problems: string[] }> {
  const context = await contextWithStore(
    browser,
    { apiKey },
    { viewport: { width: 1280, height: 900 }, acceptDownloads: true },
  )
  const page = await context.newPage()
  const { problems } = watchPage(page, server.baseUrl)
  await page.goto(`${server.baseUrl}/api-dashboard/${tab}`)
  await appRunning(page)
  return { page, problems }
}

describe('the Bulk embeddings tab', () => {
  it('uploads a file, shows the job moving to 100%, and downloads one vector per row', async () => {
    const { page, problems } = await dashboardTab(await keyFrom(server.baseUrl), 'bulk-embeddings')
    const rows = Array.from({ length: 1500 }, (_, i) => `r${i},"Review ${i}: the battery lasts, the screen is bright"`)
    await page.getByTestId('bulk-file').setInputFiles({
      name: 'reviews.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(['id,text', ...rows].join('\n')),
    })
    await page.getByTestId('start-bulk-job').click()

    const job = page.getByTestId('bulk-job').first()
    await expect.poll(() => job.getAttribute('data-status'), { timeout: 60_000 }).toBe('completed')
    await expect.poll(() => job.getByTestId('job-progress').getAttribute('data-percent')).toBe('100')
    expect(await job.textContent()).toMatch(/1,500 of 1,500 texts \(100%\)/)

    const [download] = await Promise.all([page.waitForEvent('download'), job.getByTestId('download-result').click()])
    expect(download.suggestedFilename()).toBe('reviews.embeddings.jsonl')
    const lines = readFileSync((await download.path())!, 'utf8')
      .trim()
      .split('\n')
    expect(lines).toHaveLength(1500)
    const last = JSON.parse(lines[1499])
    expect(last).toMatchObject({ index: 1499, id: 'r1499' })
    expect(last.embedding).toHaveLength(1024)
    expect(problems).toEqual([])
  })

  it('explains a file it cannot take, without starting a job', async () => {
    const { page } = await dashboardTab(await keyFrom(server.baseUrl), 'bulk-embeddings')
    await page
      .getByTestId('bulk-file')
      .setInputFiles({ name: 'table.csv', mimeType: 'text/csv', buffer: Buffer.from('title,body\nx,y\n') })
    await page.getByTestId('start-bulk-job').click()
    await expect.poll(() => page.getByTestId('upload-error').textContent()).toMatch(/^422: .*no "text" column/)
    expect(await page.getByTestId('bulk-job').count()).toBe(0)
  })
})

describe('the Classifiers tab', () => {
  it('trains a classifier from pasted examples, classifies a text with it, and deletes it after confirming', async () => {
    const apiKey = await keyFrom(server.baseUrl)
    const { page, problems } = await dashboardTab(apiKey, 'classifiers')
    const examples = [
      'billing: I was charged twice for my invoice',
      'billing: refund the payment on my credit card invoice',
      'billing: the invoice shows the wrong price',
      'bug: the app crashes when I open settings',
      'bug: error message and crash on startup',
      'bug: the button does nothing, app freezes',
    ]
    await page.getByTestId('classifier-name-input').fill('support tickets')
    await page.getByTestId('train-examples').fill(examples.join('\n'))
    await page.getByTestId('train').click()
    const row = page.getByTestId('classifier')
    await expect.poll(() => row.count(), { timeout: 30_000 }).toBe(1)
    expect(await row.textContent()).toMatch(/billing.*bug/)
    // Named (in this browser), with its id beside a copy button.
    expect(await row.getByTestId('classifier-name').textContent()).toBe('support tickets')
    await row.getByTestId('copy-classifier-id').waitFor()

    await page.getByTestId('classify-text').fill('Why is there a second charge on my invoice?')
    await page.getByTestId('classify').click()
    await expect
      .poll(() => page.getByTestId('prediction').getAttribute('data-label'), { timeout: 30_000 })
      .toBe('billing')
    // Charged from the dashboard, logged as the same calls through the API are: one row each, answered.
    const log = await fetch(`${server.baseUrl}/api/v1/requests`, { headers: { authorization: `Bearer ${apiKey}` } })
    const { requests } = (await log.json()) as { requests: Array<Record<string, unknown>> }
    expect(requests.map((r) => [r.product, r.status])).toEqual([
      ['classifier', 200],
      ['classifier', 200],
    ])
    expect(requests.every((r) => Number(r.input_tokens) > 0 && typeof r.request_id === 'string')).toBe(true)

    await row.getByTestId('delete-classifier').click()
    await page.getByTestId('confirm-delete').click()
    await expect.poll(() => row.count(), { timeout: 30_000 }).toBe(0)
    expect(await page.textContent('body')).toMatch(/No classifiers yet/)
    expect(problems).toEqual([])
  })
})
