import OpenAI from 'openai'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { apiDatabase, BASE, call, keyWithBalance, send } from '../support/api'

const database = apiDatabase()
/** Limits count per minute: each test starts a second into a minute, so no window ends mid-test. */
const atStartOfMinute = () => vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-11-22T10:00:01Z') })
afterEach(() => vi.useRealTimers())

const headersOf = (response: Response, names: string[]) =>
  Object.fromEntries(names.map((name) => [name, response.headers.get(name)]))
const requestHeaders = ['x-ratelimit-limit-requests', 'x-ratelimit-remaining-requests', 'x-ratelimit-reset-requests']
const tokenHeaders = ['x-ratelimit-limit-tokens', 'x-ratelimit-remaining-tokens', 'x-ratelimit-reset-tokens']

describe("OpenAI's x-ratelimit-*-requests and x-ratelimit-*-tokens headers", () => {
  it('embeddings: both limits on every answer, the remaining tokens falling by what each request used', async () => {
    atStartOfMinute()
    const key = await keyWithBalance(database.db, 1_000_000)
    const first = await call('POST', '/v1/embeddings', {
      bearer: key.apiKey,
      json: { model: 'embeddings-v3', input: ['rate limits as OpenAI clients read them'] },
    })
    expect(first.status).toBe(200)
    const used = first.body.usage.total_tokens as number
    // A free key: 100 requests and 100,000 tokens a minute; the window ends 59 s from now.
    expect(headersOf(first.response, [...requestHeaders, ...tokenHeaders])).toEqual({
      'x-ratelimit-limit-requests': '100',
      'x-ratelimit-remaining-requests': '99',
      'x-ratelimit-reset-requests': '59s',
      'x-ratelimit-limit-tokens': '100000',
      'x-ratelimit-remaining-tokens': String(100_000 - used),
      'x-ratelimit-reset-tokens': '59s',
    })
    // This API's own headers stay beside them.
    expect(headersOf(first.response, ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'])).toEqual({
      'x-ratelimit-limit': '100',
      'x-ratelimit-remaining': '99',
      'x-ratelimit-reset': '59',
    })

    const second = await call('POST', '/v1/embeddings', {
      bearer: key.apiKey,
      json: { model: 'embeddings-v3', input: ['a second request', 'with two inputs of a few tokens'] },
    })
    const more = second.body.usage.total_tokens as number
    expect(second.response.headers.get('x-ratelimit-remaining-requests')).toBe('98')
    expect(second.response.headers.get('x-ratelimit-remaining-tokens')).toBe(String(100_000 - used - more))
  })

  it('rerank and classify report their own token limits; deep search only its request limit', async () => {
    atStartOfMinute()
    const key = await keyWithBalance(database.db, 1_000_000)
    const reranked = await call('POST', '/v1/rerank', {
      bearer: key.apiKey,
      json: { model: 'reranker-v3', query: 'capital', documents: ['Paris is the capital of France'] },
    })
    expect(reranked.response.headers.get('x-ratelimit-limit-tokens')).toBe('100000')
    expect(reranked.response.headers.get('x-ratelimit-remaining-tokens')).toBe(
      String(100_000 - reranked.body.usage.total_tokens),
    )
    const classified = await call('POST', '/v1/classify', {
      bearer: key.apiKey,
      json: { model: 'embeddings-v3', input: ['my parcel is late'], labels: ['shipping', 'account'] },
    })
    expect(headersOf(classified.response, ['x-ratelimit-limit-requests', 'x-ratelimit-limit-tokens'])).toEqual({
      'x-ratelimit-limit-requests': '25',
      'x-ratelimit-limit-tokens': '25000',
    })
    const searched = await call('POST', '/v1/chat/completions', {
      bearer: key.apiKey,
      json: { model: 'deepsearch-v1', messages: [{ role: 'user', content: 'Which reranker reads 64 documents?' }] },
    })
    expect(searched.status).toBe(200)
    expect(searched.response.headers.get('x-ratelimit-limit-requests')).toBe('50')
    expect(searched.response.headers.get('x-ratelimit-limit-tokens')).toBeNull()
  })

  it('a request past the token limit: 429 with the tokens still left, and the request limit beside it', async () => {
    atStartOfMinute()
    const key = await keyWithBalance(database.db, 10_000_000)
    const chunk = 'lorem ipsum dolor sit amet '.repeat(300)
    const input = Array(8).fill(chunk)
    const first = await call('POST', '/v1/embeddings', { bearer: key.apiKey, json: { model: 'embeddings-v3', input } })
    const used = first.body.usage.total_tokens as number
    const left = 100_000 - used
    const tooMuch = Array(Math.ceil(left / (used / 8)) + 1).fill(chunk)
    const refused = await call('POST', '/v1/embeddings', {
      bearer: key.apiKey,
      json: { model: 'embeddings-v3', input: tooMuch },
    })
    expect(refused.status).toBe(429)
    expect(headersOf(refused.response, tokenHeaders)).toEqual({
      'x-ratelimit-limit-tokens': '100000',
      'x-ratelimit-remaining-tokens': String(left),
      'x-ratelimit-reset-tokens': '59s',
    })
    expect(refused.response.headers.get('x-ratelimit-remaining-requests')).toBe('98')
    expect(refused.response.headers.get('retry-after')).toBe('59')
  })

  it('a request past the request limit: 429 with remaining-requests 0', async () => {
    atStartOfMinute()
    const key = await keyWithBalance(database.db, 1_000_000)
    const classify = () =>
      call('POST', '/v1/classify', {
        bearer: key.apiKey,
        json: { model: 'embeddings-v3', input: ['hi'], labels: ['a', 'b'] },
      })
    for (let i = 0; i < 25; i++) expect((await classify()).status).toBe(200)
    const refused = await classify()
    expect(refused.status).toBe(429)
    expect(headersOf(refused.response, requestHeaders)).toEqual({
      'x-ratelimit-limit-requests': '25',
      'x-ratelimit-remaining-requests': '0',
      'x-ratelimit-reset-requests': '59s',
    })
  })

  it("the openai SDK's withResponse() reads them", async () => {
    atStartOfMinute()
    const key = await keyWithBalance(database.db, 1_000_000)
    const openai = new OpenAI({
      apiKey: key.apiKey,
      baseURL: `${BASE}/v1`,
      fetch: (url, init) => send(new Request(url, init)),
      maxRetries: 0,
    })
    const { data, response } = await openai.embeddings
      .create({ model: 'embeddings-v3', input: 'headers through the SDK' })
      .withResponse()
    expect(response.headers.get('x-ratelimit-remaining-requests')).toBe('99')
    expect(response.headers.get('x-ratelimit-remaining-tokens')).toBe(String(100_000 - data.usage.total_tokens))
    expect(response.headers.get('x-ratelimit-reset-tokens')).toBe('59s')
  })
})

describe('the OpenAPI document', () => {
  it('names the rate-limit headers of each answer and the Idempotency-Key of the calls that honour it', async () => {
    const { body } = await call('GET', '/api/v1/openapi.json')
    const embeddings = body.paths['/v1/embeddings'].post
    expect(Object.keys(embeddings.responses[200].headers)).toEqual(
      expect.arrayContaining([...requestHeaders, ...tokenHeaders, 'Idempotent-Replayed']),
    )
    expect(embeddings.parameters.map((p: { name: string }) => p.name)).toContain('Idempotency-Key')
    const search = body.paths['/v1/chat/completions'].post
    expect(Object.keys(search.responses[200].headers)).not.toContain('x-ratelimit-limit-tokens')
    expect(body.components.headers['x-ratelimit-reset-tokens'].schema.examples).toContain('1m0s')
  })
})
