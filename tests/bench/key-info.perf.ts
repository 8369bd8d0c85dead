import autocannon from 'autocannon'
import { describe, expect, inject, it } from 'vitest'
import { recordResults, type BenchResult } from './support/results'
import { keyFrom } from '../support/trial-key'

const baseUrl = inject('baseUrl')
const CONNECTIONS = Number(process.env.BENCH_KEY_INFO_CONNECTIONS ?? 32)
const DURATION = Number(process.env.BENCH_KEY_INFO_SECONDS ?? 10)
/** The machine is shared (see BENCHMARKS.md): the median of several runs is what is recorded. */
const RUNS = Number(process.env.BENCH_KEY_INFO_RUNS ?? 3)
/** The global setup serves the bench on Postgres when scripts/bench.mjs created a database for it. */
const database = process.env.BENCH_DATABASE_URL ? 'Postgres' : 'PGlite'

describe('key info', () => {
  it('answers GET /api/v1/api_key/fe_user under load', async () => {
    const apiKey = await keyFrom(baseUrl)
    const url = `${baseUrl}/api/v1/api_key/fe_user?api_key=${encodeURIComponent(apiKey)}`
    const first = await fetch(url)
    expect(first.status).toBe(200)
    expect(((await first.json()) as { wallet: { total_balance: number } }).wallet.total_balance).toBe(10_000_000)

    // Warm the route, the connection pool and the JIT before measuring.
    await autocannon({ url, connections: CONNECTIONS, duration: 3 })
    const runs: autocannon.Result[] = []
    for (let i = 0; i < RUNS; i++)
      runs.push(await autocannon({ url, connections: CONNECTIONS, duration: DURATION, pipelining: 1 }))
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]
    const rates = runs.map((r) => Math.round(r.requests.average))
    const p99s = runs.map((r) => r.latency.p99)
    const note = `${CONNECTIONS} connections, median of ${RUNS} × ${DURATION} s, ${database}, RATE_LIMIT_KEYS=off`
    const failures = runs.reduce((sum, r) => sum + r.non2xx + r.errors + r.timeouts, 0)
    const results: BenchResult[] = [
      {
        name: 'key info requests/s',
        value: median(rates),
        unit: 'req/s',
        budget: { op: '>=', value: 3000 },
        note: `${note}; runs ${rates.join(', ')}`,
      },
      {
        name: 'key info latency p99',
        value: median(p99s),
        unit: 'ms',
        budget: { op: '<', value: 20 },
        note: `runs ${p99s.join(', ')} ms; p50 ${median(runs.map((r) => r.latency.p50))} ms`,
      },
      { name: 'key info non-2xx', value: failures, unit: 'responses', budget: { op: '<', value: 1 } },
    ]
    recordResults('key-info', results)
    expect(failures).toBe(0)
  }, 120_000)
})
