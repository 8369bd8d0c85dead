import autocannon from 'autocannon'
import { describe, expect, inject, it } from 'vitest'
import { createHashedEmbeddings } from '~/server/providers/inference/builtin/hashed-embeddings'
import { recordResults, type BenchResult } from './support/results'
import { keyFrom } from '../support/trial-key'

const baseUrl = inject('baseUrl')
const DURATION = Number(process.env.BENCH_SEARCH_SECONDS ?? 8)
/** The machine is shared (see BENCHMARKS.md): the median of several runs is what is recorded. */
const RUNS = Number(process.env.BENCH_SEARCH_RUNS ?? 3)
/** Few connections: the server is CPU-bound, so more only queue and inflate the latency measured. */
const CONNECTIONS = Number(process.env.BENCH_SEARCH_CONNECTIONS ?? 8)
const database = process.env.BENCH_DATABASE_URL ? 'Postgres' : 'PGlite'

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]
const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))]

/** About 1 KB of English prose, varied per index so no cache answers for the engine. */
const kilobyte = (i: number) =>
  `Document ${i}. Search systems retrieve candidate passages with a fast first stage, then rerank them with a slower, more precise model. `
    .repeat(8)
    .slice(0, 1000)

/**
 * POSTs `body` to `path` under load. Each run takes fresh trial keys (`keys` of them, taken in turn by
 * the requests), so no run spends another's tokens and a heavy run does not drain its 10M tokens.
 */
async function load(
  path: string,
  body: unknown,
  options: { connections?: number; duration?: number; keys?: number } = {},
) {
  const runs: autocannon.Result[] = []
  for (let i = 0; i < RUNS; i++) {
    const keys = await Promise.all(Array.from({ length: options.keys ?? 1 }, () => keyFrom(baseUrl)))
    let turn = 0
    runs.push(
      await autocannon({
        url: `${baseUrl}${path}`,
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${keys[0]}` },
        requests: [
          {
            setupRequest: (request) => ({
              ...request,
              headers: { ...request.headers, authorization: `Bearer ${keys[turn++ % keys.length]}` },
            }),
          },
        ],
        body: JSON.stringify(body),
        connections: options.connections ?? CONNECTIONS,
        duration: options.duration ?? DURATION,
      }),
    )
  }
  const failures = runs.reduce((sum, r) => sum + r.non2xx + r.errors + r.timeouts, 0)
  return {
    runs,
    failures,
    rate: median(runs.map((r) => r.requests.average)),
    p99: median(runs.map((r) => r.latency.p99)),
  }
}

/** Texts per second of the engine alone, in this process: the floor the whole request path is compared to. */
async function engineTextsPerSecond(batch: number): Promise<number> {
  // As the server computes embeddings-v3 with the builtin engine: 1024 dimensions, its own projection.
  const engine = createHashedEmbeddings({ seedName: 'embeddings-v3' })
  const texts = Array.from({ length: batch }, (_, i) => kilobyte(i))
  const options = { task: undefined, lateChunking: false }
  for (let i = 0; i < 50; i++) await engine.embed(texts, options)
  const rates: number[] = []
  for (let run = 0; run < RUNS; run++) {
    let embedded = 0
    const started = performance.now()
    while (performance.now() - started < 2000) {
      await engine.embed(texts, options)
      embedded += batch
    }
    rates.push(embedded / ((performance.now() - started) / 1000))
  }
  return median(rates)
}

describe('search APIs', () => {
  it('segments 1 KB of content', async () => {
    const body = { content: kilobyte(0), return_chunks: true, max_chunk_length: 300 }
    const warm = await keyFrom(baseUrl)
    await autocannon({
      url: `${baseUrl}/v1/segment`,
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${warm}` },
      body: JSON.stringify(body),
      connections: CONNECTIONS,
      duration: 3,
    })
    const { rate, p99, failures, runs } = await load('/v1/segment', body)
    const note = `${CONNECTIONS} connections, median of ${RUNS} × ${DURATION} s, chunks of 300 characters, RATE_LIMIT_KEYS=off`
    recordResults('search-segment', [
      {
        name: 'segment 1 KB requests/s',
        value: Math.round(rate),
        unit: 'req/s',
        budget: { op: '>=', value: 1500 },
        note: `${note}; runs ${runs.map((r) => Math.round(r.requests.average)).join(', ')}`,
      },
      { name: 'segment 1 KB latency p99', value: p99, unit: 'ms', budget: { op: '<', value: 20 } },
    ])
    expect(failures).toBe(0)
  }, 300_000)

  it('embeds with the built-in engine, alone and through the whole request path', async () => {
    const results: BenchResult[] = []
    for (const batch of [1, 32]) {
      const engine = await engineTextsPerSecond(batch)
      const input = Array.from({ length: batch }, (_, i) => kilobyte(i))
      // A batch of 32 is 7,000 tokens: four keys' 40M tokens last a run.
      const { rate, p99, failures } = await load('/v1/embeddings', { model: 'embeddings-v3', input }, { keys: 4 })
      expect(failures).toBe(0)
      const path = rate * batch
      results.push(
        { name: `embeddings engine alone, batch ${batch}`, value: Math.round(engine), unit: 'texts/s' },
        {
          name: `embeddings whole path, batch ${batch}`,
          value: Math.round(path),
          unit: 'texts/s',
          note: `1 KB texts; HTTP, key, rate limit, metering (${database}); p99 ${p99} ms at ${CONNECTIONS} connections`,
        },
        {
          name: `embeddings path ÷ engine, batch ${batch}`,
          value: Math.round((path / engine) * 100) / 100,
          unit: '×',
          ...(batch === 32 ? { budget: { op: '>=' as const, value: 0.9 } } : {}),
        },
      )
    }
    // The same batch as base64: what the path costs without writing 32,768 floats as JSON text.
    const engine = await engineTextsPerSecond(32)
    const input = Array.from({ length: 32 }, (_, i) => kilobyte(i))
    const base64 = await load(
      '/v1/embeddings',
      { model: 'embeddings-v3', input, embedding_type: 'base64' },
      { keys: 4 },
    )
    expect(base64.failures).toBe(0)
    results.push({
      name: 'embeddings path ÷ engine, batch 32, base64',
      value: Math.round(((base64.rate * 32) / engine) * 100) / 100,
      unit: '×',
      note: `${Math.round(base64.rate * 32)} texts/s through the path, ${Math.round(engine)} alone`,
    })
    recordResults('search-embeddings', results)
  }, 600_000)

  it('reranks 100 documents of 1 KB', async () => {
    const apiKey = await keyFrom(baseUrl)
    const body = JSON.stringify({
      model: 'reranker-v3',
      query: 'how do rerankers improve first-stage retrieval',
      documents: Array.from({ length: 100 }, (_, i) => kilobyte(i)),
      return_documents: false,
    })
    const once = async () => {
      const started = performance.now()
      const response = await fetch(`${baseUrl}/v1/rerank`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` },
        body,
      })
      expect(response.status).toBe(200)
      await response.arrayBuffer()
      return performance.now() - started
    }
    for (let i = 0; i < 10; i++) await once()
    const latencies: number[] = []
    for (let i = 0; i < 150; i++) latencies.push(await once())
    recordResults('search-rerank', [
      {
        name: 'rerank 100 × 1 KB latency p50',
        value: Math.round(percentile(latencies, 50) * 10) / 10,
        unit: 'ms',
        note: 'one request at a time, 150 requests, BM25 blended with the hashed-embedding cosine',
      },
      { name: 'rerank 100 × 1 KB latency p99', value: Math.round(percentile(latencies, 99) * 10) / 10, unit: 'ms' },
    ])
  }, 300_000)
})
