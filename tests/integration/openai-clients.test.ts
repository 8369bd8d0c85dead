import { createCohere } from '@ai-sdk/cohere'
import { createOpenAI } from '@ai-sdk/openai'
import { embedMany, rerank } from 'ai'
import OpenAI from 'openai'
import { describe, expect, it } from 'vitest'
import { apiDatabase, BASE, call, keyWithBalance, send } from '../support/api'

const database = apiDatabase()

/** Every client sends through the server's own handler, in process: no build, no port. */
const viaHandler = (url: RequestInfo | URL, init?: RequestInit) => send(new Request(url, init))

const openai = (apiKey: string) =>
  // No retries: a refusal is what these tests read, not what the SDK makes of it after waiting.
  new OpenAI({ apiKey, baseURL: `${BASE}/v1`, fetch: viaHandler, maxRetries: 0 })

/** What the openai SDK throws for a call, as its users read it. */
async function sdkError(run: () => Promise<unknown>): Promise<InstanceType<typeof OpenAI.APIError>> {
  const error = await run().then(
    () => undefined,
    (thrown: unknown) => thrown,
  )
  expect(error).toBeInstanceOf(OpenAI.APIError)
  return error as InstanceType<typeof OpenAI.APIError>
}

describe("the openai SDK reads OpenAI's error object from every /v1 refusal", () => {
  it('a bad key: 401 authentication_error, invalid_api_key', async () => {
    const error = await sdkError(() =>
      openai('lds_not-a-key').embeddings.create({ model: 'embeddings-v3', input: 'hello' }),
    )
    expect(error).toMatchObject({ status: 401, type: 'authentication_error', code: 'invalid_api_key', param: null })
    expect(error.message).toBe('401 Invalid or missing API key')
  })

  it('a validation error: 422 invalid_request_error naming the field, the detail list kept', async () => {
    const { apiKey } = await keyWithBalance(database.db, 10_000)
    const error = await sdkError(() =>
      openai(apiKey).embeddings.create({ model: 'embeddings-v3', input: 'hello', dimensions: 2 }),
    )
    expect(error).toMatchObject({
      status: 422,
      type: 'invalid_request_error',
      code: 'invalid_value',
      param: 'dimensions',
    })
    expect(error.message).toBe('422 dimensions: must be at least 8')
    const raw = await call('POST', '/v1/embeddings', {
      bearer: apiKey,
      json: { model: 'embeddings-v3', input: 'hello', dimensions: 2 },
    })
    expect(raw.body.detail).toEqual([{ loc: ['body', 'dimensions'], msg: 'must be at least 8', type: 'too_small' }])
  })

  it('insufficient balance: 402 insufficient_quota', async () => {
    const { apiKey } = await keyWithBalance(database.db, 0)
    const error = await sdkError(() => openai(apiKey).embeddings.create({ model: 'embeddings-v3', input: 'hello' }))
    expect(error).toMatchObject({ status: 402, type: 'insufficient_quota', code: 'insufficient_quota', param: null })
    expect(error.message).toBe('402 Insufficient balance')
  })

  it('a rate limit: 429 rate_limit_exceeded', async () => {
    const { apiKey } = await keyWithBalance(database.db, 1_000_000)
    // A free key may classify 25 times a minute.
    const body = { model: 'embeddings-v3', input: ['a text'], labels: ['news', 'sport'] }
    for (let i = 0; i < 25; i++) await call('POST', '/v1/classify', { bearer: apiKey, json: body })
    const error = await sdkError(() => openai(apiKey).post('/classify', { body }))
    expect(error).toMatchObject({ status: 429, type: 'rate_limit_error', code: 'rate_limit_exceeded' })
    expect(error.message).toBe('429 Rate limit exceeded, try again later')
  })

  it('an unknown endpoint: 404 not_found_error', async () => {
    const error = await sdkError(() => openai('lds_any').get('/no-such-api'))
    expect(error).toMatchObject({ status: 404, type: 'not_found_error', code: 'unknown_url', param: null })
    expect(error.message).toBe('404 Unknown endpoint')
  })

  it('keeps the dashboard API as it was: `detail` only', async () => {
    const { status, body } = await call('GET', '/api/v1/no-such-api')
    expect(status).toBe(404)
    expect(body).toEqual({ detail: 'Unknown endpoint' })
  })
})

describe("the AI SDK's providers with their defaults", () => {
  it('embedMany sends 1,500 values in one call (OpenAI’s 2,048 a call) and gets a vector for each', async () => {
    const { apiKey } = await keyWithBalance(database.db, 1_000_000)
    const provider = createOpenAI({ apiKey, baseURL: `${BASE}/v1`, fetch: viaHandler })
    const values = Array.from({ length: 1500 }, (_, i) => `text number ${i} about rerankers`)
    const { embeddings, responses } = await embedMany({ model: provider.embedding('embeddings-v3'), values })
    expect(embeddings).toHaveLength(1500)
    expect(responses).toHaveLength(1)
    expect(embeddings[0].length).toBeGreaterThan(0)
  })

  it('2,049 inputs are refused with a 422 naming the limit, before any charge', async () => {
    const key = await keyWithBalance(database.db, 1_000_000)
    const input = Array.from({ length: 2049 }, (_, i) => `text ${i}`)
    const { status, body } = await call('POST', '/v1/embeddings', {
      bearer: key.apiKey,
      json: { model: 'embeddings-v3', input },
    })
    expect(status).toBe(422)
    expect(body.detail[0]).toMatchObject({
      loc: ['body', 'input'],
      msg: 'must hold at most 2048 inputs (the limit per request)',
    })
    expect(body.error).toMatchObject({ type: 'invalid_request_error', param: 'input' })
  })

  it("@ai-sdk/cohere's rerank reads the answer: Cohere's id and meta beside the results", async () => {
    const { apiKey } = await keyWithBalance(database.db, 100_000)
    const cohere = createCohere({ apiKey, baseURL: `${BASE}/v1`, fetch: viaHandler })
    const documents = ['Bread needs flour and water.', 'A reranker orders documents by relevance to a query.']
    const result = await rerank({
      model: cohere.reranking('reranker-v3'),
      query: 'what does a reranker do?',
      documents,
    })
    expect(result.ranking[0]).toMatchObject({ originalIndex: 1 })
    expect(result.response.id).toBeTruthy()
    const raw = result.response.body as { id: string; meta: unknown }
    expect(raw.meta).toEqual({ api_version: { version: '2' }, billed_units: { search_units: 1 } })
  })
})
