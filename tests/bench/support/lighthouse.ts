import { execFile, spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { chromium } from 'playwright-core'
import { computeMedianRun } from 'lighthouse/core/lib/median-run.js'
import { apiKeyCookie } from '~/lib/api-key-cookie'
import { freePort } from '../../support/ports'
import type { BenchResult } from './results'

const run = promisify(execFile)
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const chromeFlags = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

export interface Report {
  categories: Record<string, { score: number }>
  audits: Record<string, { numericValue?: number }>
  /** Lighthouse's measure of this machine's speed: figures compare only between runs of similar index. */
  environment?: { benchmarkIndex?: number }
}

/**
 * Runs per page (LIGHTHOUSE_RUNS, default 3): one run moves by several points from the next on this machine, so
 * the figures are those of the median run as Lighthouse itself chooses it (closest to the median FCP and TTI).
 */
export const runsPerPage = Number(process.env.LIGHTHOUSE_RUNS ?? 3)

/**
 * Lighthouse as a visitor on a mid-range phone sees it: mobile form factor, simulated 4G and a 4× slower CPU.
 * With `apiKey`, the visitor is one who holds that key: a fresh profile gets it in local storage and in the
 * `apiKey` cookie, as the site itself stores it, before Lighthouse loads the page with its cache still cold.
 */
export async function lighthouse(url: string, { apiKey, attempts = 3 }: { apiKey?: string; attempts?: number } = {}) {
  try {
    return await lighthouseOnce(url, apiKey)
  } catch (error) {
    // Headless Chromium now and then loses the trace (NO_NAVSTART); a second run measures normally.
    if (attempts <= 1) throw error
    return lighthouse(url, { apiKey, attempts: attempts - 1 })
  }
}

async function lighthouseOnce(url: string, apiKey: string | undefined): Promise<Report> {
  const dir = mkdtempSync(join(tmpdir(), 'lighthouse-'))
  const output = join(dir, 'report.json')
  const args = [
    'node_modules/lighthouse/cli/index.js',
    url,
    '--quiet',
    '--output=json',
    `--output-path=${output}`,
    '--form-factor=mobile',
    '--throttling-method=simulate',
  ]
  const options = { env: { ...process.env, CHROME_PATH: chromiumPath }, timeout: 180_000 }
  try {
    if (!apiKey) {
      await run(process.execPath, [...args, `--chrome-flags=${chromeFlags.join(' ')}`], options)
    } else {
      const port = await freePort()
      const browser = spawn(
        chromiumPath,
        [...chromeFlags, `--remote-debugging-port=${port}`, `--user-data-dir=${join(dir, 'profile')}`, 'about:blank'],
        { stdio: 'ignore' },
      )
      try {
        await storeKey(port, new URL(url).origin, apiKey)
        // The profile keeps the key; Lighthouse must not clear it (the cache is cold: nothing else was loaded).
        await run(process.execPath, [...args, `--port=${port}`, '--disable-storage-reset'], options)
      } finally {
        browser.kill()
      }
    }
    return JSON.parse(readFileSync(output, 'utf8')) as Report
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** Stores the key in the browser's profile from a file of the site that loads nothing else (robots.txt). */
async function storeKey(port: number, origin: string, apiKey: string) {
  const deadline = Date.now() + 30_000
  for (;;) {
    try {
      const browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`)
      const page = await browser.contexts()[0]!.newPage()
      await page.goto(`${origin}/robots.txt`)
      await page.evaluate(
        ([key, cookie]) => {
          localStorage.setItem('user', JSON.stringify({ apiKey: key }))
          document.cookie = cookie
        },
        [apiKey, apiKeyCookie(apiKey, new URL(origin).hostname)] as const,
      )
      await page.close()
      await browser.close()
      return
    } catch (error) {
      if (Date.now() > deadline) throw error
      await new Promise((resolve) => setTimeout(resolve, 250))
    }
  }
}

/** Lighthouse's median run of `runsPerPage` runs, and every run's Performance score for the note. */
export async function measure(url: string, options: { apiKey?: string } = {}) {
  const runs: Report[] = []
  for (let i = 0; i < runsPerPage; i++) runs.push(await lighthouse(url, options))
  const report = computeMedianRun(runs as never) as unknown as Report
  return { report, runs }
}

export const score = (report: Report, id: string) => Math.round(report.categories[id]!.score * 100)
export const audit = (report: Report, id: string) => report.audits[id]?.numericValue ?? Number.NaN

/** The rows BENCHMARKS.md shows for one page, with the budgets of the marketing pages. */
export function pageResults(
  path: string,
  { report, runs }: { report: Report; runs: Report[] },
  {
    performance = 100,
    extraNote = '',
    indexed = true,
  }: { performance?: number; extraNote?: string; indexed?: boolean } = {},
): BenchResult[] {
  const spread = runs.map((r) => score(r, 'performance')).sort((a, b) => a - b)
  return [
    {
      name: `${path} performance`,
      value: score(report, 'performance'),
      unit: '',
      budget: { op: '>=', value: performance },
      note:
        `median of ${runs.length} runs (${spread.join(', ')}), benchmark index ` +
        `${Math.round(report.environment?.benchmarkIndex ?? Number.NaN)}${extraNote}`,
    },
    { name: `${path} FCP`, value: Math.round(audit(report, 'first-contentful-paint')), unit: 'ms' },
    {
      name: `${path} accessibility`,
      value: score(report, 'accessibility'),
      unit: '',
      budget: { op: '>=', value: 100 },
    },
    {
      name: `${path} best practices`,
      value: score(report, 'best-practices'),
      unit: '',
      budget: { op: '>=', value: 100 },
    },
    // A page kept out of search engines (noindex, as the dashboard is by design) loses SEO points for it alone.
    indexed
      ? { name: `${path} SEO`, value: score(report, 'seo'), unit: '', budget: { op: '>=', value: 100 } }
      : { name: `${path} SEO`, value: score(report, 'seo'), unit: '', note: 'noindex by design' },
    {
      name: `${path} LCP`,
      value: Math.round(audit(report, 'largest-contentful-paint')),
      unit: 'ms',
      budget: { op: '<', value: 1500 },
    },
    {
      name: `${path} TBT`,
      value: Math.round(audit(report, 'total-blocking-time')),
      unit: 'ms',
      budget: { op: '<', value: 50 },
    },
    {
      name: `${path} CLS`,
      value: Math.round(audit(report, 'cumulative-layout-shift') * 1000) / 1000,
      unit: '',
      budget: { op: '<', value: 0.01 },
    },
  ]
}
