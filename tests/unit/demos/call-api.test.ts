import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { rerankAnswer, segmentAnswer } from '~/contracts/search'
import { callDemoApi, DemoCallError } from '~/features/demos/lib/call-api'

/** A loopback stand-in for the search API: records each request, answers with what the test set. */
let server: Server
let origin = ''
let answer: (response: ServerResponse) => void = () => {}
const received: { method?: string; url?: string; headers: IncomingMessage['headers']; body: string }[] = []

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = ''
    request.on('data', (chunk) => (body += chunk))
    request.on('end', () => {
      received.push({ method: request.method, url: request.url, headers: request.headers, body })
      answer(response)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))
beforeEach(() => {
  received.length = 0
})

const json =
  (status: number, body: unknown, headers: Record<string, string> = {}) =>
  (response: ServerResponse) => {
    response.writeHead(status, { 'content-type': 'application/json', ...headers })
    response.end(JSON.stringify(body))
  }

async function failureOf(run: Promise<unknown>) {
  const error = await run.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(DemoCallError)
  return (error as DemoCallError).failure
}

describe('a demo call', () => {
  const rerank = {
    id: 'req-1',
    model: 'builtin-reranker',
    results: [{ index: 1, relevance_score: 0.9, document: { text: 'b' } }],
    usage: { total_tokens: 12 },
    meta: { api_version: { version: '2' }, billed_units: { search_units: 1 } },
  }

  it('posts the JSON body with the bearer key and reads the answer and its rate limit', async () => {
    answer = json(200, rerank, { 'x-ratelimit-limit': '100', 'x-ratelimit-remaining': '99' })
    const body = { model: 'reranker-v3', query: 'q', documents: ['a', 'b'] }
    const result = await callDemoApi('/v1/rerank', body, 'lds_key', rerankAnswer, { origin })
    expect(result).toEqual({ data: rerank, rateLimit: { limit: 100, remaining: 99 } })
    expect(received).toHaveLength(1)
    expect(received[0]).toMatchObject({ method: 'POST', url: '/v1/rerank' })
    expect(received[0].headers.authorization).toBe('Bearer lds_key')
    expect(received[0].headers['content-type']).toBe('application/json')
    expect(JSON.parse(received[0].body)).toEqual(body)
  })

  it('sends no Authorization header without a key', async () => {
    answer = json(200, { num_tokens: 1, tokenizer: 'cl100k_base', usage: { tokens: 0 } })
    const result = await callDemoApi('/v1/segment', { content: 'x' }, null, segmentAnswer, { origin })
    expect(result.data.num_tokens).toBe(1)
    expect(result.rateLimit).toBeUndefined()
    expect(received[0].headers.authorization).toBeUndefined()
  })

  it('turns refusals into failures the page can explain', async () => {
    answer = json(402, { detail: 'Balance exhausted' })
    expect(await failureOf(callDemoApi('/v1/rerank', {}, 'k', rerankAnswer, { origin }))).toEqual({
      kind: 'exhausted',
      message: '402: Balance exhausted',
    })
    answer = json(429, { detail: 'Rate limit exceeded' }, { 'retry-after': '30' })
    expect(await failureOf(callDemoApi('/v1/rerank', {}, 'k', rerankAnswer, { origin }))).toEqual({
      kind: 'rate-limited',
      message: '429: Rate limit exceeded',
      retryAfterSeconds: 30,
    })
    answer = json(422, { detail: [{ loc: ['body', 'query'], msg: 'must not be empty', type: 'value_error' }] })
    expect((await failureOf(callDemoApi('/v1/rerank', {}, 'k', rerankAnswer, { origin }))).message).toBe(
      '422: query must not be empty.',
    )
  })

  it('refuses an answer that breaks the contract instead of drawing nonsense', async () => {
    answer = json(200, {
      id: 'req-1',
      model: 'x',
      results: [{ index: 0 }],
      usage: { total_tokens: 1 },
      meta: { api_version: { version: '2' }, billed_units: { search_units: 1 } },
    })
    const failure = await failureOf(callDemoApi('/v1/rerank', {}, 'k', rerankAnswer, { origin }))
    expect(failure.kind).toBe('other')
    expect(failure.message).toMatch(/^200: unexpected answer \(results\.0\.relevance_score: /)
  })

  it('reports a server that cannot be reached as status 0', async () => {
    const closed = createServer()
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
    const gone = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`
    await new Promise<void>((resolve) => closed.close(() => resolve()))
    const failure = await failureOf(callDemoApi('/v1/rerank', {}, 'k', rerankAnswer, { origin: gone }))
    expect(failure.message).toMatch(/^0: /)
  })
})
