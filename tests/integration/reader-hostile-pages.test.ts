import { sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { completionChunk } from '~/contracts/deepsearch'
import { readEvents } from '~/lib/event-stream/parse'
import * as v from 'valibot'
import { call, keyWithBalance, respond, scalar, type CallInit } from '../support/api'
import { apiWithWeb, eventsOf } from '../support/api-with-web'

// A conversion may take a second here, so a page of 40,000 links (seconds of work) runs out of time.
const api = apiWithWeb({
  READER_ALLOW_PRIVATE_NETWORKS: 'true',
  READER_CACHE_TTL_SECONDS: '3600',
  READER_CONVERT_TIMEOUT_SECONDS: '1',
  DEEPSEARCH_ENGINE: 'builtin',
})

const read = (url: string, init: CallInit = {}) => call('GET', `/r/${url}`, init)
const json = { accept: 'application/json', 'x-no-cache': 'true' }
const tooDeep = "The page nests elements deeper than 256 levels, the reader's limit"
/**
 * The next read after a timeout: the converter must answer it. Its process may be starting again, which can
 * itself pass the 1 s limit on a loaded machine (load 10 in CI), so a few tries; a converter left stuck answers none.
 */
async function nextRead(url: string, init: CallInit) {
  let answer = await read(url, init)
  for (let tries = 1; tries < 4 && answer.status === 504; tries++) answer = await read(url, init)
  return answer
}
const cachedRows = (url: string) => scalar(api.database.db, sql`select count(*) from reader_cache where url = ${url}`)

describe('hostile pages through the reader', () => {
  it('refuses 5,000 nested <div>s with 422 naming the limit (the converter’s stack overflowed: 500), and charges nothing', async () => {
    const key = await keyWithBalance(api.database.db, 100_000)
    const url = api.web.url('/hostile/nested?depth=5000')
    expect(await read(url, { bearer: key.apiKey, headers: json })).toMatchObject({
      status: 422,
      body: { detail: tooDeep },
    })
    expect(await api.balanceOf(key.id)).toBe(100_000)
    expect(await cachedRows(url)).toBe(0)
  })

  it('answers 504 for a page that takes longer than the time limit to convert, charges nothing, and reads the next page', async () => {
    const key = await keyWithBalance(api.database.db, 100_000)
    const url = api.web.url('/hostile/links?count=40000')
    expect(await read(url, { bearer: key.apiKey, headers: json })).toMatchObject({
      status: 504,
      body: { detail: "The page could not be converted within 1 s, the reader's limit" },
    })
    expect(await api.balanceOf(key.id)).toBe(100_000)
    const next = await nextRead(api.web.url('/article'), { bearer: key.apiKey, headers: json })
    expect(next).toMatchObject({ status: 200, body: { data: { title: 'Rerankers in practice' } } })
    expect(await api.balanceOf(key.id)).toBe(100_000 - next.body.data.usage.tokens)
  })

  it('answers 504 for a PDF that takes longer than the time limit to read, where it was read on the event loop for seconds', async () => {
    const key = await keyWithBalance(api.database.db, 100_000)
    // 200 pages of 50 KB of text operators each: seconds of pdf.js work, nothing to inflate.
    const started = performance.now()
    expect(
      await read(api.web.url('/hostile/pdf-slow?pages=200&kb=50'), { bearer: key.apiKey, headers: json }),
    ).toMatchObject({
      status: 504,
      body: { detail: "The page could not be converted within 1 s, the reader's limit" },
    })
    expect(performance.now() - started).toBeLessThan(1000 + 2000)
    expect(await api.balanceOf(key.id)).toBe(100_000)
    const next = await nextRead(api.web.url('/sample.pdf'), { bearer: key.apiKey, headers: json })
    expect(next).toMatchObject({ status: 200, body: { data: { numPages: 2 } } })
  })

  it('ends a stream of a page it refuses with an error event, and charges it nothing', async () => {
    const key = await keyWithBalance(api.database.db, 100_000)
    const response = await respond('GET', `/r/${api.web.url('/hostile/nested?depth=900000')}`, {
      bearer: key.apiKey,
      headers: { accept: 'text/event-stream', 'x-no-cache': 'true' },
    })
    const events = await eventsOf(response)
    expect(events.at(-1)).toMatchObject({ event: 'error' })
    expect(JSON.parse(events.at(-1)!.data)).toMatchObject({ code: 422, name: 'AssertionFailureError', detail: tooDeep })
    expect(events.filter((event) => event.event !== 'error')).toEqual([])
    expect(await api.balanceOf(key.id)).toBe(100_000)
  })

  it('lets deep search read past a page the reader refuses, saying why', async () => {
    const key = await keyWithBalance(api.database.db, 1_000_000)
    const url = api.web.url('/hostile/nested?depth=5000')
    const response = await respond('POST', '/v1/chat/completions', {
      bearer: key.apiKey,
      json: {
        model: 'deepsearch-v1',
        messages: [{ role: 'user', content: `What does ${url} say about rerankers?` }],
        stream: true,
      },
    })
    const steps: string[] = []
    for await (const event of readEvents(response.body!)) {
      if (event.data === '[DONE]') break
      const chunk = v.parse(completionChunk, JSON.parse(event.data))
      // Deep search says what it could not read in its reasoning.
      steps.push(chunk.choices[0]?.delta.reasoning_content ?? chunk.choices[0]?.delta.content ?? '')
    }
    expect(steps).toContain(`Could not read ${url}: ${tooDeep}.\n`)
  })
})
