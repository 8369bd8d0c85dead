import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { EngineRefused } from '~/server/domain/refusals'
import { createUpstreamEngines } from '~/server/providers/inference/upstream'

/** What the fake upstream received. */
interface Received {
  method: string
  url: string
  headers: IncomingMessage['headers']
  body: any
}

const key = 'up-secret-key-123'
let server: Server
let baseUrl: string
let received: Received[] = []
/** The current scenario: how the fake upstream answers. */
let answer: (request: Received, response: ServerResponse) => void

const json = (response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  response.writeHead(status, { 'content-type': 'application/json', ...headers })
  response.end(typeof body === 'string' ? body : JSON.stringify(body))
}

async function listen(handler: (request: IncomingMessage, response: ServerResponse) => void): Promise<Server> {
  const created = createServer(handler)
  await new Promise<void>((resolve) => created.listen(0, '127.0.0.1', resolve))
  return created
}
const urlOf = (listening: Server) => `http://127.0.0.1:${(listening.address() as AddressInfo).port}`
const close = (listening: Server) => {
  listening.closeAllConnections()
  return new Promise((resolve) => listening.close(resolve))
}

beforeAll(async () => {
  server = await listen((request, response) => {
    let text = ''
    request.on('data', (chunk) => (text += chunk))
    request.on('end', () => {
      const entry = { method: request.method ?? '', url: request.url ?? '', headers: request.headers, body: undefined }
      entry.body = text ? JSON.parse(text) : undefined
      received.push(entry)
      answer(entry, response)
    })
  })
  baseUrl = urlOf(server)
})
afterAll(() => close(server))
beforeEach(() => {
  received = []
})

const engines = (options: { apiKey?: string; timeoutMs?: number; baseUrl?: string } = {}) =>
  createUpstreamEngines({ baseUrl, apiKey: key, timeoutMs: 5_000, ...options })
const embedOptions = { requestedModel: 'jina-embeddings-v3', task: undefined, lateChunking: false }

/** The refusal a call ends with (the test fails if it succeeds or throws anything else). */
async function refusalOf(call: Promise<unknown>): Promise<EngineRefused> {
  const outcome = await call.then(
    () => new Error('expected a refusal, got an answer'),
    (error: unknown) => error,
  )
  expect(outcome).toBeInstanceOf(EngineRefused)
  return outcome as EngineRefused
}

describe('upstream embeddings', () => {
  it('forwards model, inputs, task and late chunking with our key, and answers unit vectors in input order', async () => {
    answer = (_, response) =>
      json(response, 200, {
        model: 'jina-embeddings-v3',
        object: 'list',
        data: [
          { object: 'embedding', index: 1, embedding: [0, 0, 2] },
          { object: 'embedding', index: 0, embedding: [3, 4, 0] },
        ],
        usage: { total_tokens: 5, prompt_tokens: 5 },
      })
    const { embeddings } = engines()
    expect(embeddings).toMatchObject({ kind: 'upstream', maxInputTokens: 8192, supportsLateChunking: true })
    expect(embeddings.dimensions).toBe(0)
    const result = await embeddings.embed(['first', 'second'], {
      requestedModel: 'jina-embeddings-v3',
      task: 'retrieval.passage',
      lateChunking: true,
    })

    expect(received).toHaveLength(1)
    const [request] = received
    expect(request.method).toBe('POST')
    expect(request.url).toBe('/v1/embeddings')
    expect(request.headers.authorization).toBe(`Bearer ${key}`)
    expect(request.headers['content-type']).toBe('application/json')
    expect(request.body).toEqual({
      model: 'jina-embeddings-v3',
      input: ['first', 'second'],
      task: 'retrieval.passage',
      late_chunking: true,
      embedding_type: 'float',
      normalized: true,
    })
    expect(result.model).toBe('jina-embeddings-v3')
    expect(result.taskApplied).toBe(true)
    expect(result.vectors.map((vector) => Array.from(vector))).toEqual([
      [Math.fround(0.6), Math.fround(0.8), 0],
      [0, 0, 1],
    ])
    expect(result.vectors[0]).toBeInstanceOf(Float32Array)
    expect(embeddings.dimensions).toBe(3)
  })

  it('leaves out task and late chunking when not asked, and the authorization without a key', async () => {
    answer = (_, response) => json(response, 200, { data: [{ index: 0, embedding: [1, 0] }] })
    const result = await engines({ apiKey: undefined }).embeddings.embed(['only'], embedOptions)
    expect(received[0].headers.authorization).toBeUndefined()
    expect(received[0].body).toEqual({
      model: 'jina-embeddings-v3',
      input: ['only'],
      embedding_type: 'float',
      normalized: true,
    })
    // No model in the answer: the one asked for is named.
    expect(result.model).toBe('jina-embeddings-v3')
  })

  it('keeps a path prefix of the base URL and drops its trailing slash', async () => {
    answer = (_, response) => json(response, 200, { data: [{ index: 0, embedding: [1] }] })
    await engines({ baseUrl: `${baseUrl}/proxy/` }).embeddings.embed(['x'], embedOptions)
    expect(received[0].url).toBe('/proxy/v1/embeddings')
  })

  it('goes through the fetch it is given', async () => {
    answer = (_, response) => json(response, 200, { data: [{ index: 0, embedding: [1] }] })
    const seen: string[] = []
    const { embeddings } = createUpstreamEngines({
      baseUrl,
      timeoutMs: 5_000,
      fetch: (input, init) => {
        seen.push(String(input))
        return fetch(input, init)
      },
    })
    await embeddings.embed(['x'], embedOptions)
    expect(seen).toEqual([`${baseUrl}/v1/embeddings`])
  })
})

describe('upstream rerank', () => {
  it('asks for every document without their texts, and answers scores in document order within [0, 1]', async () => {
    answer = (_, response) =>
      json(response, 200, {
        model: 'jina-reranker-v2-base-multilingual',
        results: [
          { index: 2, relevance_score: 1.25 },
          { index: 0, relevance_score: 0.5 },
          { index: 1, relevance_score: -0.1 },
        ],
        usage: { total_tokens: 9 },
      })
    const { reranker } = engines()
    expect(reranker).toMatchObject({ kind: 'upstream', maxInputTokens: 8192 })
    const result = await reranker.rerank('query', ['a', 'b', 'c'], {
      requestedModel: 'jina-reranker-v2-base-multilingual',
      passThrough: { instruction: 'prefer recent documents' },
    })
    expect(received[0].url).toBe('/v1/rerank')
    expect(received[0].headers.authorization).toBe(`Bearer ${key}`)
    expect(received[0].body).toEqual({
      instruction: 'prefer recent documents',
      model: 'jina-reranker-v2-base-multilingual',
      query: 'query',
      documents: ['a', 'b', 'c'],
      top_n: 3,
      return_documents: false,
    })
    expect(result).toEqual({ model: 'jina-reranker-v2-base-multilingual', scores: [0.5, 0, 1] })
  })
})

describe('upstream refusals', () => {
  const cases: Array<{
    name: string
    status: number
    body: unknown
    headers?: Record<string, string>
    expected: { status: number; detail: string; retryAfterSeconds?: number }
  }> = [
    {
      name: '400 with a detail string',
      status: 400,
      body: { detail: 'Input text exceeds 8192 tokens' },
      expected: { status: 422, detail: 'Input text exceeds 8192 tokens' },
    },
    {
      name: '422 with a validation list',
      status: 422,
      body: { detail: [{ loc: ['body', 'input', 0], msg: 'too long', type: 'value_error' }, { msg: 'bad task' }] },
      expected: { status: 422, detail: 'body.input.0: too long; bad task' },
    },
    {
      name: '422 in the OpenAI shape',
      status: 422,
      body: { error: { message: 'model not found' } },
      expected: { status: 422, detail: 'model not found' },
    },
    {
      name: '422 without a readable detail',
      status: 422,
      body: '<html>nope</html>',
      expected: { status: 422, detail: 'Upstream API refused the input' },
    },
    {
      name: '401, whatever it says about the key',
      status: 401,
      body: { detail: `invalid key ${key}` },
      expected: { status: 502, detail: 'Upstream API rejected our credentials' },
    },
    {
      name: '403',
      status: 403,
      body: { detail: 'forbidden' },
      expected: { status: 502, detail: 'Upstream API rejected our credentials' },
    },
    {
      name: '402',
      status: 402,
      body: { detail: 'insufficient balance' },
      expected: { status: 502, detail: 'Upstream API account has no balance' },
    },
    {
      name: '429 with Retry-After',
      status: 429,
      body: { detail: 'slow down' },
      headers: { 'retry-after': '7' },
      expected: { status: 503, detail: 'Upstream API is rate limited, retry later', retryAfterSeconds: 7 },
    },
    {
      name: '429 without Retry-After',
      status: 429,
      body: {},
      expected: { status: 503, detail: 'Upstream API is rate limited, retry later', retryAfterSeconds: undefined },
    },
    {
      name: '500',
      status: 500,
      body: { detail: 'Traceback (most recent call last): ...' },
      expected: { status: 502, detail: 'Upstream API failed (status 500)' },
    },
    {
      name: '503',
      status: 503,
      body: 'unavailable',
      expected: { status: 502, detail: 'Upstream API failed (status 503)' },
    },
    {
      name: '404',
      status: 404,
      body: { detail: 'Not Found' },
      expected: { status: 502, detail: 'Upstream API failed (status 404)' },
    },
  ]

  for (const { name, status, body, headers, expected } of cases) {
    it(`maps ${name} (embeddings and rerank alike)`, async () => {
      answer = (_, response) => json(response, status, body, headers)
      const { embeddings, reranker } = engines()
      for (const call of [
        () => embeddings.embed(['x'], embedOptions),
        () => reranker.rerank('q', ['d'], { requestedModel: 'm' }),
      ]) {
        const refusal = await refusalOf(call())
        expect({
          status: refusal.status,
          detail: refusal.detail,
          retryAfterSeconds: refusal.retryAfterSeconds,
        }).toEqual({ retryAfterSeconds: undefined, ...expected })
        expect(refusal.message).not.toContain(key)
      }
    })
  }

  it('reads a Retry-After date as the seconds until then', async () => {
    const inTenSeconds = new Date(Date.now() + 10_000).toUTCString()
    answer = (_, response) => json(response, 429, {}, { 'retry-after': inTenSeconds })
    const refusal = await refusalOf(engines().embeddings.embed(['x'], embedOptions))
    expect(refusal.retryAfterSeconds).toBeGreaterThanOrEqual(8)
    expect(refusal.retryAfterSeconds).toBeLessThanOrEqual(10)
  })

  it('times out an upstream that never answers, and one that stalls mid-answer', async () => {
    answer = () => {}
    const started = Date.now()
    const silent = await refusalOf(engines({ timeoutMs: 200 }).embeddings.embed(['x'], embedOptions))
    expect(silent).toMatchObject({ status: 504, detail: 'Upstream API timed out' })
    expect(Date.now() - started).toBeLessThan(3_000)

    answer = (_, response) => {
      response.writeHead(200, { 'content-type': 'application/json' })
      response.write('{"data": [')
    }
    const stalled = await refusalOf(engines({ timeoutMs: 200 }).reranker.rerank('q', ['d'], { requestedModel: 'm' }))
    expect(stalled).toMatchObject({ status: 504, detail: 'Upstream API timed out' })
  })

  it('calls an upstream nobody listens on unreachable', async () => {
    const gone = await listen(() => {})
    const goneUrl = urlOf(gone)
    await close(gone)
    const refusal = await refusalOf(engines({ baseUrl: goneUrl }).embeddings.embed(['x'], embedOptions))
    expect(refusal).toMatchObject({ status: 502, detail: 'Upstream API unreachable' })
  })

  it('follows no redirect, so our key reaches no other host', async () => {
    const elsewhere: IncomingMessage[] = []
    const other = await listen((request, response) => {
      elsewhere.push(request)
      json(response, 200, { data: [{ index: 0, embedding: [1] }] })
    })
    answer = (_, response) => {
      response.writeHead(307, { location: `${urlOf(other)}/v1/embeddings` })
      response.end()
    }
    const refusal = await refusalOf(engines().embeddings.embed(['x'], embedOptions))
    await close(other)
    expect(refusal).toMatchObject({ status: 502, detail: 'Upstream API unreachable' })
    expect(elsewhere).toHaveLength(0)
  })
})

describe('malformed upstream answers', () => {
  const embeddingAnswers: Array<[string, unknown]> = [
    ['not JSON', '{"data": [1, 2'],
    ['no data', { model: 'm' }],
    ['fewer vectors than inputs', { data: [{ index: 0, embedding: [1, 0] }] }],
    [
      'vectors of different dimensions',
      {
        data: [
          { index: 0, embedding: [1, 0] },
          { index: 1, embedding: [1, 0, 0] },
        ],
      },
    ],
    [
      'a repeated index',
      {
        data: [
          { index: 0, embedding: [1, 0] },
          { index: 0, embedding: [0, 1] },
        ],
      },
    ],
    [
      'an index out of range',
      {
        data: [
          { index: 0, embedding: [1, 0] },
          { index: 2, embedding: [0, 1] },
        ],
      },
    ],
    [
      'a zero vector',
      {
        data: [
          { index: 0, embedding: [0, 0] },
          { index: 1, embedding: [0, 1] },
        ],
      },
    ],
    [
      'base64 instead of floats',
      {
        data: [
          { index: 0, embedding: 'AACAPw==' },
          { index: 1, embedding: 'AACAPw==' },
        ],
      },
    ],
    [
      'empty vectors',
      {
        data: [
          { index: 0, embedding: [] },
          { index: 1, embedding: [] },
        ],
      },
    ],
  ]
  for (const [name, body] of embeddingAnswers) {
    it(`refuses embeddings with ${name} as a 502`, async () => {
      answer = (_, response) => json(response, 200, body)
      const refusal = await refusalOf(engines().embeddings.embed(['one', 'two'], embedOptions))
      expect(refusal).toMatchObject({ status: 502, detail: 'Upstream API answered malformed data' })
    })
  }

  const rerankAnswers: Array<[string, unknown]> = [
    ['not JSON', 'results'],
    ['no results', { data: [] }],
    ['an unscored document', { results: [{ index: 0, relevance_score: 0.4 }] }],
    [
      'a document scored twice',
      {
        results: [
          { index: 0, relevance_score: 0.4 },
          { index: 0, relevance_score: 0.3 },
        ],
      },
    ],
    [
      'an index out of range',
      {
        results: [
          { index: 0, relevance_score: 0.4 },
          { index: 5, relevance_score: 0.3 },
        ],
      },
    ],
    ['a score that is no number', { results: [{ index: 0, relevance_score: 'high' }] }],
  ]
  for (const [name, body] of rerankAnswers) {
    it(`refuses rerank with ${name} as a 502`, async () => {
      answer = (_, response) => json(response, 200, body)
      const refusal = await refusalOf(engines().reranker.rerank('q', ['a', 'b'], { requestedModel: 'm' }))
      expect(refusal).toMatchObject({ status: 502, detail: 'Upstream API answered malformed data' })
    })
  }
})
