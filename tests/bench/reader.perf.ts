import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { convertPage, type ConversionRequest } from '~/server/providers/reader/convert/convert'
import { withOutputTokens } from '~/server/providers/reader/convert/output-tokens'
import { ConversionPool } from '~/server/providers/reader/convert-pool/pool'
import threadSource from '~/server/providers/reader/convert-pool/thread.ts?thread'
import { keyFrom } from '../support/trial-key'
import { startWebFixtures, type WebFixtures } from '../support/web-fixtures'
import { hundredKilobyteArticle } from '../support/web-pages'
import { recordResults } from './support/results'

const baseUrl = inject('baseUrl')
/** Requests per measurement; the machine is shared (BENCHMARKS.md), so medians and p90s are recorded. */
const RUNS = Number(process.env.BENCH_READER_RUNS ?? 30)

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]
const p90 = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * 0.9))]
const round = (ms: number) => Math.round(ms * 10) / 10

let web: WebFixtures
let apiKey: string

beforeAll(async () => {
  web = await startWebFixtures()
  apiKey = await keyFrom(baseUrl)
})
afterAll(() => web.close())

/** One read of the 100 KB article through the served build; `fresh` bypasses the cache. */
async function readOnce(fresh: boolean): Promise<{ ms: number; cache: string | null }> {
  const started = performance.now()
  const response = await fetch(`${baseUrl}/r/${web.url('/article-100k')}`, {
    headers: {
      accept: 'application/json',
      authorization: `Bearer ${apiKey}`,
      ...(fresh ? { 'x-no-cache': 'true' } : {}),
    },
  })
  const body = (await response.json()) as { data?: { content: string } }
  const ms = performance.now() - started
  expect(response.status).toBe(200)
  expect(body.data?.content.length).toBeGreaterThan(50_000)
  return { ms, cache: response.headers.get('x-cache') }
}

/** Time from sending a streamed deep-search request to its first chunk, and to its last. */
async function deepSearchOnce(): Promise<{ first: number; last: number }> {
  const started = performance.now()
  const response = await fetch(`${baseUrl}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` },
    body: JSON.stringify({
      model: 'deepsearch-v1',
      messages: [{ role: 'user', content: 'Which reranker reads up to 64 documents in one context window?' }],
      reasoning_effort: 'low',
      stream: true,
    }),
  })
  const reader = response.body!.getReader()
  let first: number | undefined
  let text = ''
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    first ??= performance.now() - started
    text += new TextDecoder().decode(value)
  }
  expect(text).toContain('data: [DONE]')
  return { first: first!, last: performance.now() - started }
}

describe('reader and deep search', () => {
  it('reads a 100 KB article from loopback, cold and cached; deep search answers its first chunk fast', async () => {
    const html = hundredKilobyteArticle()
    // Conversion alone, in this process: the part of a cold read that is the reader's own work.
    const request = {
      source: html,
      kind: 'html' as const,
      url: 'http://127.0.0.1/a',
      options: { format: 'content' as const, withLinks: false, withImages: false },
    }
    for (let i = 0; i < 5; i++) convertPage(request)
    const convert: number[] = []
    for (let i = 0; i < RUNS; i++) {
      const started = performance.now()
      convertPage(request)
      convert.push(performance.now() - started)
    }

    // The same page, and a page of a few words, on a thread of a pool (as the server converts them) and in
    // this process with the token count the thread adds: what handing a page to a thread costs.
    const tiny: ConversionRequest = { ...request, source: '<html><body><p>A few words.</p></body></html>' }
    const pool = new ConversionPool({ source: threadSource, threads: 1, timeoutMs: 60_000, memoryMb: 512 })
    const timed = async (run: () => unknown) => {
      for (let i = 0; i < 5; i++) await run()
      const times: number[] = []
      for (let i = 0; i < RUNS; i++) {
        const started = performance.now()
        await run()
        times.push(performance.now() - started)
      }
      return median(times)
    }
    const onThread = await timed(() => pool.convert(request))
    const tinyOnThread = await timed(() => pool.convert(tiny))
    const tinyInProcess = await timed(() => withOutputTokens(convertPage(tiny)))
    await pool.close()

    for (let i = 0; i < 3; i++) await readOnce(true)
    const cold: number[] = []
    for (let i = 0; i < RUNS; i++) cold.push((await readOnce(true)).ms)
    const cached: number[] = []
    for (let i = 0; i < RUNS; i++) {
      const read = await readOnce(false)
      expect(read.cache).toBe('hit')
      cached.push(read.ms)
    }

    for (let i = 0; i < 3; i++) await deepSearchOnce()
    const firstChunk: number[] = []
    const answered: number[] = []
    for (let i = 0; i < RUNS; i++) {
      const { first, last } = await deepSearchOnce()
      firstChunk.push(first)
      answered.push(last)
    }

    const note = `${RUNS} sequential requests after a warm-up, ${(html.length / 1024).toFixed(0)} KB article served on loopback, JSON answer, trial key`
    recordResults('reader', [
      { name: 'reader cold read (fetch + convert + meter) median', value: round(median(cold)), unit: 'ms/page', note },
      { name: 'reader cold read p90', value: round(p90(cold)), unit: 'ms/page' },
      { name: 'reader cached read median', value: round(median(cached)), unit: 'ms/page', note: 'X-Cache: hit' },
      { name: 'reader cached read p90', value: round(p90(cached)), unit: 'ms/page' },
      {
        name: 'reader conversion alone (linkedom + Readability + turndown) median',
        value: round(median(convert)),
        unit: 'ms/page',
        note: 'in the bench process, no HTTP',
      },
      {
        name: 'reader conversion on a pool thread (with its token count) median',
        value: round(onThread),
        unit: 'ms/page',
        note: 'the same page through a 1-thread ConversionPool in the bench process',
      },
      {
        name: 'reader pool round trip for a page of a few words median',
        value: round(tinyOnThread),
        unit: 'ms/page',
        note: `the same page converted and counted in process: ${round(tinyInProcess)} ms`,
      },
      {
        name: 'deep search time to first chunk median',
        value: round(median(firstChunk)),
        unit: 'ms',
        budget: { op: '<', value: 300 },
        note: `built-in engine, streamed, reasoning_effort low, ${RUNS} requests`,
      },
      {
        name: 'deep search time to first chunk p90',
        value: round(p90(firstChunk)),
        unit: 'ms',
        budget: { op: '<', value: 300 },
      },
      { name: 'deep search time to the whole answer median', value: round(median(answered)), unit: 'ms' },
    ])
    expect(median(firstChunk)).toBeLessThan(300)
  })
})
