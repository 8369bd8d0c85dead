import { readdirSync, readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { keyFrom } from '../support/trial-key'
import { startWebFixtures, type WebFixtures } from '../support/web-fixtures'
import { recordResults, type BenchResult } from './support/results'

/**
 * What rendering by default costs (issue 41, item 2): each fixture page read through the served build with
 * `X-Engine: direct`, `X-Engine: browser` and no engine (the default, which renders only pages that need
 * it), one read at a time, uncached: the latency a caller sees, and the processor time the server spent on
 * it, its converter processes and Chromium included (every process under the server, in /proc). Each series
 * has a trial key of its own, so no series runs into a key's browser seconds a minute.
 */
const baseUrl = inject('baseUrl')
const dataDir = inject('dataDir')
const RUNS = Number(process.env.BENCH_READER_ENGINES_RUNS ?? 10)
const TICKS = 100 // USER_HZ, what /proc counts processor time in

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]
const p90 = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * 0.9))]
const round = (ms: number) => Math.round(ms)

/** The served build's process: the one started with this run's data folder. */
function serverPid(): number {
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue
    try {
      const environ = readFileSync(`/proc/${name}/environ`, 'latin1').split('\0')
      if (environ.includes(`DATA_DIR=${dataDir}`) && readFileSync(`/proc/${name}/cmdline`, 'latin1').includes('node'))
        return Number(name)
    } catch {
      // gone, or not ours to read
    }
  }
  throw new Error(`no server process with DATA_DIR=${dataDir}`)
}

/**
 * Processor milliseconds of `root` and every process under it, the ended ones included (a parent's
 * cutime/cstime hold its reaped children's: Chromium's renderers, converters that were replaced).
 */
function treeCpuMs(root: number): number {
  const stats = new Map<number, { parent: number; ticks: number }>()
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'latin1')
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      // After the name: state, ppid, …; utime, stime, cutime, cstime are the 14th to 17th fields of the line.
      const ticks = Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])
      stats.set(Number(name), { parent: Number(fields[1]), ticks })
    } catch {
      // ended while listed
    }
  }
  const under = (pid: number): boolean => {
    for (let p: number | undefined = pid; p; p = stats.get(p)?.parent) if (p === root) return true
    return false
  }
  let ticks = 0
  for (const [pid, { ticks: own }] of stats) if (under(pid)) ticks += own
  return (ticks * 1000) / TICKS
}

let web: WebFixtures
let pid: number

beforeAll(async () => {
  web = await startWebFixtures()
  pid = serverPid()
})
afterAll(() => web.close())

type Engine = 'direct' | 'browser' | 'default'

/** `RUNS` reads of `path` by `engine`, after two unmeasured ones: latencies, processor time, and who read it. */
async function series(path: string, engine: Engine) {
  let apiKey = ''
  let reads = 0
  // A new trial key every 5 reads (made before the clock starts): 5 renders stay within a free key's seconds.
  const nextKey = async () => {
    if (reads++ % 5 === 0) apiKey = await keyFrom(baseUrl)
  }
  const once = async () => {
    const started = performance.now()
    const response = await fetch(`${baseUrl}/r/${web.url(path)}`, {
      headers: {
        accept: 'application/json',
        authorization: `Bearer ${apiKey}`,
        'x-no-cache': 'true',
        ...(engine !== 'default' && { 'x-engine': engine }),
      },
    })
    const body = (await response.json()) as { data?: { content: string; warning?: string } }
    expect(response.status, `${path} ${engine}`).toBe(200)
    expect(body.data?.warning, `${path} ${engine}`).toBeUndefined()
    return { ms: performance.now() - started, engine: response.headers.get('x-engine') }
  }
  for (let i = 0; i < 2; i++) {
    await nextKey()
    await once()
  }
  const times: number[] = []
  const engines = new Set<string | null>()
  let cpuMs = 0
  for (let i = 0; i < RUNS; i++) {
    await nextKey()
    const before = treeCpuMs(pid)
    const read = await once()
    cpuMs += treeCpuMs(pid) - before
    times.push(read.ms)
    engines.add(read.engine)
  }
  cpuMs /= RUNS
  return { median: median(times), p90: p90(times), cpuMs, engines: [...engines].join(', ') }
}

describe('reader engines: direct, browser and the default', () => {
  it('costs a page its latency and processor time by each engine', async () => {
    const pages = [
      { path: '/article-100k', label: '101 KB article (text of its own)' },
      { path: '/browser/js', label: 'page its script writes' },
      { path: '/browser/loading', label: '"Loading…" app root amid server text' },
    ]
    const results: BenchResult[] = []
    const rows: string[] = []
    for (const { path, label } of pages) {
      const by: Record<string, Awaited<ReturnType<typeof series>>> = {}
      for (const engine of ['direct', 'browser', 'default'] as const) {
        const measured = (by[engine] = await series(path, engine))
        rows.push(
          `${label} | ${engine} | ${round(measured.median)} / ${round(measured.p90)} ms | ${round(measured.cpuMs)} CPU-ms | ${measured.engines}`,
        )
      }
      const figures = (engine: string) => `${round(by[engine].median)} ms, ${round(by[engine].cpuMs)} CPU-ms`
      // One row a page for BENCHMARKS.md's table: the default, with what each engine named costs beside it.
      results.push({
        name: `reader ${label}, no X-Engine (read by ${by.default.engines}), median`,
        value: round(by.default.median),
        unit: 'ms/page',
        note: `${round(by.default.cpuMs)} CPU-ms a page (server, converters, Chromium); X-Engine: direct ${figures('direct')}; browser ${figures('browser')}; ${RUNS} uncached reads`,
      })
    }
    console.log(rows.join('\n'))
    recordResults('reader-engines', results)
  })
})
