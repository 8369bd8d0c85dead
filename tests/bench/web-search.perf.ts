import { beforeAll, describe, expect, inject, it } from 'vitest'
import { keyFrom } from '../support/trial-key'
import { recordResults } from './support/results'

const baseUrl = inject('baseUrl')
/** Searches per measurement; each reads up to 5 of the site's pages, so fewer runs than the reader's. */
const RUNS = Number(process.env.BENCH_SEARCH_RUNS ?? 10)

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]
const p90 = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * 0.9))]
const round = (ms: number) => Math.round(ms * 10) / 10

let apiKey: string

beforeAll(async () => {
  apiKey = await keyFrom(baseUrl)
})

/** One search of the built-in engine through the served build: 5 results, each read from the site itself. */
async function searchOnce(headers: Record<string, string>): Promise<number> {
  const started = performance.now()
  const response = await fetch(`${baseUrl}/s/reranker`, {
    headers: { accept: 'application/json', authorization: `Bearer ${apiKey}`, ...headers },
  })
  const body = (await response.json()) as { data?: unknown[] }
  const ms = performance.now() - started
  expect(response.status).toBe(200)
  expect(body.data?.length).toBe(5)
  return ms
}

async function measure(headers: Record<string, string>): Promise<number[]> {
  for (let i = 0; i < 2; i++) await searchOnce(headers)
  const times: number[] = []
  for (let i = 0; i < RUNS; i++) times.push(await searchOnce(headers))
  return times
}

describe('search', () => {
  it('answers /s/<query> with 5 results read from the site, fresh and cached, and as links only', async () => {
    const fresh = await measure({ 'x-no-cache': 'true' })
    const cached = await measure({})
    const listed = await measure({ 'x-respond-with': 'no-content' })
    const note = `${RUNS} sequential searches after a warm-up, built-in engine, 5 results, JSON, trial key`
    recordResults('web-search', [
      {
        name: 'search, 5 results read fresh (reader fetches the site) median',
        value: round(median(fresh)),
        unit: 'ms',
        note,
      },
      { name: 'search, 5 results read fresh p90', value: round(p90(fresh)), unit: 'ms' },
      { name: 'search, 5 results from the reader cache median', value: round(median(cached)), unit: 'ms' },
      { name: 'search, 5 results from the reader cache p90', value: round(p90(cached)), unit: 'ms' },
      { name: 'search, no-content (nothing read) median', value: round(median(listed)), unit: 'ms' },
    ])
  })
})
