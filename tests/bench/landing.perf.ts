import autocannon from 'autocannon'
import { gzipSync } from 'node:zlib'
import { describe, expect, inject, it } from 'vitest'
import { launchBrowser } from '../e2e/support/browser'
import { recordResults, type BenchResult } from './support/results'

const baseUrl = inject('baseUrl')
const marketingPages = ['/', '/embeddings', '/models', '/ja']

/** Loads a page in Chromium and adds up every JavaScript response it fetched before `load`, gzipped. */
async function firstLoadJs(path: string): Promise<{ kb: number; firebase: boolean }> {
  const browser = await launchBrowser()
  const page = await browser.newPage()
  const bodies: Promise<Buffer>[] = []
  page.on('response', (response) => {
    const type = response.headers()['content-type'] ?? ''
    if (type.includes('javascript')) bodies.push(response.body().catch(() => Buffer.alloc(0)))
  })
  await page.goto(baseUrl + path, { waitUntil: 'load' })
  await page.waitForLoadState('networkidle')
  const scripts = await Promise.all(bodies)
  // Inline scripts (hydration data, theme) count too: a visitor downloads them with the HTML.
  const inline = await page.evaluate(() => [...document.querySelectorAll('script:not([src])')].map((s) => s.textContent ?? '').join(''))
  await browser.close()
  const gzipped = scripts.reduce((sum, body) => sum + gzipSync(body).length, 0)
  return { kb: gzipped / 1024, firebase: scripts.some((body) => body.includes('firebase')) || inline.includes('firebase') }
}

describe('landing page', () => {
  it('serves server-rendered requests per second', async () => {
    const run = await autocannon({ url: `${baseUrl}/`, connections: 16, duration: 10, pipelining: 1 })
    const results: BenchResult[] = [
      { name: 'landing SSR requests/s', value: Math.round(run.requests.average), unit: 'req/s' },
      { name: 'landing SSR latency p99', value: run.latency.p99, unit: 'ms' },
    ]
    for (const path of marketingPages) {
      const js = await firstLoadJs(path)
      results.push({ name: `first-load JS ${path}`, value: Math.round(js.kb * 10) / 10, unit: 'KB gzip', budget: { op: '<', value: 150 }, note: js.firebase ? 'contains Firebase' : 'no Firebase' })
      expect(js.firebase).toBe(false)
    }
    expect(run.non2xx).toBe(0)
    recordResults('landing', results)
  }, 120_000)
})
