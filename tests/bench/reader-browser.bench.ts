/**
 * The reader's browser engine against its direct fetch, on this machine: median milliseconds to get one
 * page (the 100 KB article, and the scripted page) by each, pages per minute through the pool
 * (READER_BROWSER_PAGES at once), and the memory the pool's Chromium processes hold while it works.
 * Conversion is left out (it is the same for both engines, see reader.perf.ts). Prints one JSON object (and writes it to BENCH_OUT when set).
 */
import { execFileSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { expect, test } from 'vitest'
import { BrowserPool, chromiumPathOf } from '~/server/providers/reader/browser/chromium'
import { renderPage } from '~/server/providers/reader/browser/render'
import type { FetchLimits } from '~/server/providers/reader/fetcher'
import { fetchPage } from '~/server/providers/reader/node-fetch'
import { startWebFixtures } from '../support/web-fixtures'

const RUNS = Number(process.env.BENCH_READER_BROWSER_RUNS ?? 15)
const PAGES = Number(process.env.BENCH_READER_BROWSER_PAGES ?? 2)
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]
const limits: FetchLimits = {
  allows: () => true,
  dnsServers: undefined,
  timeoutMs: 120_000,
  maxBytes: 10 * 1024 * 1024,
  maxRedirects: 5,
}

/** Resident memory (MiB) of every Chromium process started from this one: the pool's browser and its renderers. */
function chromiumMemoryMb(): number {
  const rows = execFileSync('ps', ['-e', '-o', 'pid=,ppid=,rss=,comm='], { encoding: 'utf8' }).trim().split('\n')
  const processes = rows.map((row) => {
    const [pid, ppid, rss, ...command] = row.trim().split(/\s+/)
    return { pid: Number(pid), ppid: Number(ppid), rss: Number(rss), command: command.join(' ') }
  })
  const ours = new Set([process.pid])
  let grew = true
  while (grew) {
    grew = false
    for (const p of processes)
      if (ours.has(p.ppid) && !ours.has(p.pid)) {
        ours.add(p.pid)
        grew = true
      }
  }
  const kb = processes
    .filter((p) => ours.has(p.pid) && p.pid !== process.pid && /chrom/i.test(p.command))
    .reduce((sum, p) => sum + p.rss, 0)
  return Math.round(kb / 1024)
}

test('direct and browser reads, pages per minute and memory of the pool', async () => {
  const web = await startWebFixtures()
  const path = chromiumPathOf({ CHROMIUM_PATH: process.env.CHROMIUM_PATH })!
  const pool = new BrowserPool(
    {
      CHROMIUM_PATH: path,
      READER_BROWSER_PAGES: PAGES,
      READER_BROWSER_MEMORY_MB: 512,
      READER_BROWSER_RECYCLE_PAGES: 1000,
    },
    path,
  )
  try {
    const timed = async (run: () => Promise<unknown>) => {
      const started = performance.now()
      await run()
      return performance.now() - started
    }
    const direct = async (page: string) => {
      const fetched = await fetchPage(new URL(web.url(page)), limits)
      for await (const chunk of fetched.body) void chunk
    }
    const browser = (page: string) => renderPage(pool, new URL(web.url(page)), {}, limits)
    await browser('/browser/js') // the process starts once, not in a measurement
    const result: Record<string, unknown> = { runs: RUNS, pool_pages: PAGES }
    for (const page of ['/article-100k', '/browser/js']) {
      const directMs: number[] = []
      const browserMs: number[] = []
      for (let i = 0; i < RUNS; i++) {
        directMs.push(await timed(() => direct(page)))
        browserMs.push(await timed(() => browser(page)))
      }
      result[page] = {
        direct_median_ms: Math.round(median(directMs) * 10) / 10,
        browser_median_ms: Math.round(median(browserMs)),
      }
    }
    let peak = 0
    const sampler = setInterval(() => (peak = Math.max(peak, chromiumMemoryMb())), 200)
    const total = PAGES * 6
    const started = performance.now()
    await Promise.all(Array.from({ length: total }, (_, i) => browser(i % 2 ? '/article-100k' : '/browser/js')))
    const seconds = (performance.now() - started) / 1000
    clearInterval(sampler)
    result.pages_per_minute = Math.round((total / seconds) * 60)
    result.pool_memory_peak_mb = peak
    result.pool_memory_idle_mb = chromiumMemoryMb()
    console.log(JSON.stringify(result))
    if (process.env.BENCH_OUT) writeFileSync(process.env.BENCH_OUT, JSON.stringify(result, null, 2))
    expect(result.pages_per_minute).toBeGreaterThan(0)
  } finally {
    await pool.close()
    await web.close()
  }
})
