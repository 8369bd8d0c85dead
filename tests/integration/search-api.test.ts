import { createServer, type Server } from 'node:http'
import { sql } from 'drizzle-orm'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { searchLimits } from '~/contracts/search'
import { oversizedBodyAnswer } from '~/server/http/body-limit'
import { countTokens } from '../support/tokens'
import { apiDatabase, call, fingerprint, keyWithBalance, scalar } from '../support/api'

const database = apiDatabase()
/** Limits count per minute: a test that counts to one starts at the beginning of a minute, so no window ends mid-count. */
const atStartOfMinute = () => vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-11-22T10:00:01Z') })
afterEach(() => vi.useRealTimers())

const balanceOf = (id: string) => scalar(database.db, sql`select balance from api_keys where id = ${id}::uuid`)
const post = (path: string, bearer: string | undefined, json: unknown) =>
  call('POST', path, { ...(bearer ? { bearer } : {}), json })
const embed = (bearer: string | undefined, json: unknown) => post('/v1/embeddings', bearer, json)
const cosine = (a: number[], b: number[]) => a.reduce((sum, x, i) => sum + x * b[i], 0)
const tokensOf = (...texts: string[]) => texts.reduce((sum, text) => sum + countTokens(text), 0)

describe('POST /v1/embeddings', () => {
  it('answers one unit vector per input, charges exactly the usage it reports, and says which model computed it', async () => {
    const key = await keyWithBalance(database.db, 10_000)
    const input = ['The cat sat on the mat.', { text: 'A cat was sitting on the mat.' }, 'Quarterly revenue grew 4%.']
    const { status, body, response } = await embed(key.apiKey, { model: 'embeddings-v3', input })
    expect(status).toBe(200)
    // The model asked for serves it, and a header names the engine that computed it.
    expect(body).toMatchObject({ object: 'list', model: 'embeddings-v3' })
    expect(response.headers.get('x-engine')).toBe('builtin')
    expect(body.data.map((d: { index: number; object: string }) => [d.index, d.object])).toEqual([
      [0, 'embedding'],
      [1, 'embedding'],
      [2, 'embedding'],
    ])
    const [cat, cat2, revenue] = body.data.map((d: { embedding: number[] }) => d.embedding)
    expect(cat).toHaveLength(1024)
    expect(cosine(cat, cat)).toBeCloseTo(1, 5)
    expect(cosine(cat, cat2)).toBeGreaterThan(cosine(cat, revenue) + 0.3)
    const tokens = tokensOf('The cat sat on the mat.', 'A cat was sitting on the mat.', 'Quarterly revenue grew 4%.')
    expect(body.usage).toEqual({ total_tokens: tokens, prompt_tokens: tokens })
    expect(await balanceOf(key.id)).toBe(10_000 - tokens)
    expect(response.headers.get('x-ratelimit-limit')).toBe('100')
    expect(response.headers.get('x-ratelimit-remaining')).toBe('99')
    expect(Number(response.headers.get('x-ratelimit-reset'))).toBeGreaterThan(0)
  })

  it('truncates to `dimensions` and encodes base64, binary and ubinary from the same vector', async () => {
    const key = await keyWithBalance(database.db, 10_000)
    const request = { model: 'embeddings-v3', input: ['vectors in four encodings'], dimensions: 64 }
    const float = (await embed(key.apiKey, request)).body.data[0].embedding as number[]
    expect(float).toHaveLength(64)
    expect(cosine(float, float)).toBeCloseTo(1, 5)
    const base64 = (await embed(key.apiKey, { ...request, embedding_type: 'base64' })).body.data[0].embedding
    const bytes = Buffer.from(base64, 'base64')
    expect([...new Float32Array(bytes.buffer, bytes.byteOffset, 64)].map((x) => x.toFixed(5))).toEqual(
      float.map((x) => Math.fround(x).toFixed(5)),
    )
    const ubinary = (await embed(key.apiKey, { ...request, embedding_type: 'ubinary' })).body.data[0].embedding
    const binary = (await embed(key.apiKey, { ...request, embedding_type: 'binary' })).body.data[0].embedding
    expect(ubinary).toHaveLength(8)
    const bits = ubinary.flatMap((byte: number) => [...Array(8)].map((_, i) => (byte >> (7 - i)) & 1))
    expect(bits).toEqual(float.map((x) => (x > 0 ? 1 : 0)))
    expect(binary).toEqual(ubinary.map((byte: number) => (byte > 127 ? byte - 256 : byte)))
  })

  it('refuses over-length input with 422 naming it, unless truncate is set', async () => {
    const key = await keyWithBalance(database.db, 100_000)
    const long = 'word '.repeat(9000)
    const refused = await embed(key.apiKey, { model: 'embeddings-v3', input: ['short', long] })
    expect(refused.status).toBe(422)
    expect(refused.body.detail[0]).toMatchObject({ loc: ['body', 'input', 1], type: 'too_long' })
    expect(refused.body.detail[0].msg).toContain('8192')
    expect(await balanceOf(key.id)).toBe(100_000)
    const truncated = await embed(key.apiKey, { model: 'embeddings-v3', input: [long], truncate: true })
    expect(truncated.status).toBe(200)
    expect(truncated.body.usage.total_tokens).toBe(8192)
    expect(await balanceOf(key.id)).toBe(100_000 - 8192)
  })

  it('honours late_chunking: each chunk vector carries context from its neighbours', async () => {
    const key = await keyWithBalance(database.db, 10_000)
    const input = ['Berlin is a city.', 'It has many museums.']
    const plain = (await embed(key.apiKey, { model: 'embeddings-v3', input })).body.data
    const late = (await embed(key.apiKey, { model: 'embeddings-v3', input, late_chunking: true })).body.data
    expect(late).toHaveLength(2)
    expect(cosine(late[0].embedding, late[1].embedding)).toBeGreaterThan(cosine(plain[0].embedding, plain[1].embedding))
  })

  it('answers 401 without a valid key, 402 when the balance cannot pay (nothing charged), 422 on bad input', async () => {
    const before = await fingerprint(database.db)
    expect((await embed(undefined, { model: 'embeddings-v3', input: ['x'] })).status).toBe(401)
    expect((await embed('lds_not-a-key', { model: 'embeddings-v3', input: ['x'] })).status).toBe(401)
    expect(await fingerprint(database.db)).toEqual(before)

    const poor = await keyWithBalance(database.db, 3)
    const short = await embed(poor.apiKey, { model: 'embeddings-v3', input: ['four tokens long here'] })
    expect(short).toMatchObject({ status: 402, body: { detail: 'Insufficient balance' } })
    expect(await balanceOf(poor.id)).toBe(3)

    const key = await keyWithBalance(database.db, 1000)
    for (const [json, loc] of [
      [{ input: ['x'] }, ['body', 'model']],
      [{ model: 'no-such-model', input: ['x'] }, ['body', 'model']],
      [{ model: 'embeddings-v3', input: [] }, ['body', 'input']],
      [{ model: 'embeddings-v3', input: [''] }, ['body', 'input', 0]],
      [{ model: 'embeddings-v3', input: ['x'], embedding_type: 'int4' }, ['body', 'embedding_type']],
      [{ model: 'embeddings-v3', input: ['x'], dimensions: 4096 }, ['body', 'dimensions']],
      [{ model: 'embeddings-v3', input: ['x'], dimensions: 0 }, ['body', 'dimensions']],
      [{ model: 'embeddings-v3', input: ['x'], task: 'summarise' }, ['body', 'task']],
      [{ model: 'embeddings-v3', input: Array(searchLimits.maxEmbeddingInputs + 1).fill('x') }, ['body', 'input']],
    ] as const) {
      const { status, body } = await embed(key.apiKey, json)
      expect(status, JSON.stringify(json).slice(0, 80)).toBe(422)
      expect(body.detail[0].loc).toEqual(loc)
    }
    const tooMany = await embed(key.apiKey, { model: 'embeddings-v3', input: Array(2049).fill('x') })
    expect(tooMany.body.detail[0].msg).toContain('2048')
    expect(await balanceOf(key.id)).toBe(1000)
  })

  it('limits a free key to 100 requests a minute with 429, Retry-After and X-RateLimit headers', async () => {
    atStartOfMinute()
    const key = await keyWithBalance(database.db, 100_000)
    const answers = []
    for (let i = 0; i < 101; i++) answers.push(await embed(key.apiKey, { model: 'embeddings-v3', input: ['hi'] }))
    expect(answers.slice(0, 100).every((a) => a.status === 200)).toBe(true)
    const limited = answers[100]
    expect(limited.status).toBe(429)
    expect(limited.response.headers.get('x-ratelimit-limit')).toBe('100')
    expect(limited.response.headers.get('x-ratelimit-remaining')).toBe('0')
    expect(Number(limited.response.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(await balanceOf(key.id)).toBe(100_000 - 100 * tokensOf('hi'))
  })

  it('limits tokens per minute: a free key may embed 100k tokens a minute, and a refused request costs nothing', async () => {
    atStartOfMinute()
    const key = await keyWithBalance(database.db, 1_000_000)
    const chunk = 'lorem ipsum dolor sit amet '.repeat(300)
    const perRequest = tokensOf(chunk) * 8
    const sent = Math.floor(100_000 / perRequest)
    for (let i = 0; i < sent; i++)
      expect((await embed(key.apiKey, { model: 'embeddings-v3', input: Array(8).fill(chunk) })).status).toBe(200)
    const over = await embed(key.apiKey, { model: 'embeddings-v3', input: Array(8).fill(chunk) })
    expect(over.status).toBe(429)
    expect(await balanceOf(key.id)).toBe(1_000_000 - sent * perRequest)
  })

  it('holds request bodies to 4 MiB (413) while the dashboard API keeps 64 KB', async () => {
    const big = (bytes: number) =>
      new Request('http://localhost/v1/embeddings', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'embeddings-v3', input: ['x'.repeat(bytes)] }),
      })
    expect(await oversizedBodyAnswer(big(1024 * 1024), '/v1/embeddings')).toBeUndefined()
    expect((await oversizedBodyAnswer(big(searchLimits.maxBodyBytes), '/v1/embeddings'))?.status).toBe(413)
    expect((await oversizedBodyAnswer(big(100 * 1024), '/api/v1/billing/balance_notification'))?.status).toBe(413)
  })
})

describe('POST /v1/rerank', () => {
  const documents = [
    'Berlin is the capital of Germany',
    'Paris is the capital of France',
    'France is known for its wine',
    'The Eiffel Tower is in Paris',
  ]

  it('ranks the answering document first, scores in [0, 1], top_n and return_documents honoured', async () => {
    const key = await keyWithBalance(database.db, 10_000)
    const { status, body } = await post('/v1/rerank', key.apiKey, {
      model: 'reranker-v3',
      query: 'capital of France',
      documents,
    })
    expect(status).toBe(200)
    expect(body.model).toBe('reranker-v3')
    expect(body.results[0]).toMatchObject({ index: 1, document: { text: documents[1] } })
    const scores = body.results.map((r: { relevance_score: number }) => r.relevance_score)
    expect(scores).toEqual([...scores].sort((a, b) => b - a))
    expect(scores.every((s: number) => s >= 0 && s <= 1)).toBe(true)
    expect(body.usage.total_tokens).toBe(tokensOf('capital of France', ...documents))
    expect(await balanceOf(key.id)).toBe(10_000 - body.usage.total_tokens)

    const top = await post('/v1/rerank', key.apiKey, {
      model: 'reranker-v3',
      query: 'capital of France',
      documents: documents.map((text) => ({ text })),
      top_n: 2,
      return_documents: false,
    })
    expect(top.body.results).toHaveLength(2)
    expect(top.body.results[0]).toEqual({ index: 1, relevance_score: scores[0] })
  })

  it('refuses a missing query, no documents, a bad top_n and an unknown model with 422', async () => {
    const key = await keyWithBalance(database.db, 10_000)
    for (const json of [
      { model: 'reranker-v3', documents },
      { model: 'reranker-v3', query: 'q', documents: [] },
      { model: 'reranker-v3', query: 'q', documents, top_n: 0 },
      { model: 'embeddings-v3', query: 'q', documents },
    ])
      expect((await post('/v1/rerank', key.apiKey, json)).status).toBe(422)
    expect(await balanceOf(key.id)).toBe(10_000)
  })
})

describe('POST /v1/segment', () => {
  it('counts tokens exactly per tokenizer, free of charge, with or without a key', async () => {
    const content = 'Hello world! Tokenizers split text into tokens.'
    const anonymous = await post('/v1/segment', undefined, { content })
    expect(anonymous.status).toBe(200)
    expect(anonymous.body).toMatchObject({ tokenizer: 'cl100k_base', num_tokens: tokensOf(content) })
    // Free: usage reports what was charged, as the original's does; the count is num_tokens.
    expect(anonymous.body.usage.tokens).toBe(0)
    expect(anonymous.response.headers.get('x-ratelimit-limit')).toBe('20')
    const key = await keyWithBalance(database.db, 10)
    const keyed = await post('/v1/segment', key.apiKey, { content, tokenizer: 'gpt2' })
    expect(keyed.status).toBe(200)
    expect(keyed.response.headers.get('x-ratelimit-limit')).toBe('200')
    expect(await balanceOf(key.id)).toBe(10)
  })

  it('splits into chunks at paragraph boundaries, with positions that slice back to them', async () => {
    const content = `${'First paragraph sentence. '.repeat(3).trim()}\n\n${'Second paragraph here. '.repeat(3).trim()}`
    const { body } = await post('/v1/segment', undefined, {
      content,
      return_chunks: true,
      return_tokens: true,
      max_chunk_length: 100,
    })
    expect(body.num_chunks).toBe(2)
    expect(body.chunks[0]).toContain('First paragraph')
    expect(body.chunks[1]).toContain('Second paragraph')
    body.chunk_positions.forEach(([start, end]: [number, number], i: number) =>
      expect(content.slice(start, end)).toBe(body.chunks[i]),
    )
    expect(body.tokens).toHaveLength(2)
  })

  it('limits anonymous callers to 20 requests a minute per address', async () => {
    atStartOfMinute()
    const statuses = []
    for (let i = 0; i < 21; i++)
      statuses.push((await call('POST', '/v1/segment', { json: { content: 'x' }, address: '198.51.100.9' })).status)
    expect(statuses.filter((s) => s === 200)).toHaveLength(20)
    expect(statuses.at(-1)).toBe(429)
    const elsewhere = await call('POST', '/v1/segment', {
      json: { content: 'x' },
      address: '198.51.100.10',
    })
    expect(elsewhere.status).toBe(200)
  })

  it('refuses an unknown tokenizer, head with tail, and an empty content with 422', async () => {
    for (const json of [
      { content: 'x', tokenizer: 'bert' },
      { content: 'x', head: 2, tail: 2 },
      { content: '' },
      { content: 'x', max_chunk_length: 0 },
    ])
      expect((await post('/v1/segment', undefined, json)).status).toBe(422)
    expect((await post('/v1/segment', 'lds_bogus', { content: 'x' })).status).toBe(401)
  })
})

const examples = [
  ...[
    'My parcel never arrived',
    'The delivery is late again',
    'Where is my shipment?',
    'The courier lost my package',
    'Tracking says delivered but no parcel',
  ].map((text) => ({ text, label: 'shipping' })),
  ...[
    'I forgot my password',
    'How do I reset my password?',
    'My account is locked after failed logins',
    'Change the e-mail address of my account',
    'I cannot log in to my account',
  ].map((text) => ({ text, label: 'account' })),
]

describe('POST /v1/classify and /v1/train, GET and DELETE /v1/classifiers', () => {
  it('classifies zero-shot by similarity to the labels', async () => {
    const key = await keyWithBalance(database.db, 10_000)
    const labels = ['parcel delivery shipping', 'account password login']
    const { status, body } = await post('/v1/classify', key.apiKey, {
      model: 'embeddings-v3',
      input: ['My parcel delivery is late', 'I lost my password'],
      labels,
    })
    expect(status).toBe(200)
    expect(body.data.map((d: { prediction: string }) => d.prediction)).toEqual(labels)
    for (const item of body.data) {
      expect(item.object).toBe('classification')
      expect(item.predictions.reduce((sum: number, p: { score: number }) => sum + p.score, 0)).toBeCloseTo(1, 5)
      expect(item.score).toBe(item.predictions[0].score)
    }
    expect(body.usage.total_tokens).toBe(tokensOf('My parcel delivery is late', 'I lost my password', ...labels))
    expect(await balanceOf(key.id)).toBe(10_000 - body.usage.total_tokens)
  })

  it('trains a classifier that persists, predicts held-out texts, counts its use and trains further', async () => {
    const key = await keyWithBalance(database.db, 100_000)
    const trained = await post('/v1/train', key.apiKey, {
      model: 'embeddings-v3',
      input: examples,
      num_iters: 20,
    })
    expect(trained.status).toBe(200)
    expect(trained.body).toMatchObject({ num_samples: examples.length })
    expect(trained.body.usage.total_tokens).toBe(tokensOf(...examples.map((e) => e.text)))
    const id = trained.body.classifier_id

    const classified = await post('/v1/classify', key.apiKey, {
      classifier_id: id,
      input: ['My package has not been delivered', 'Please reset my login password'],
    })
    expect(classified.body.data.map((d: { prediction: string }) => d.prediction)).toEqual(['shipping', 'account'])

    const further = await post('/v1/train', key.apiKey, {
      classifier_id: id,
      input: [{ text: 'I was charged twice on my card', label: 'billing' }],
    })
    expect(further.status).toBe(200)

    const listed = await call('GET', '/v1/classifiers', { bearer: key.apiKey })
    expect(listed.body).toHaveLength(1)
    expect(listed.body[0]).toMatchObject({
      classifier_id: id,
      model_name: 'embeddings-v3',
      labels: ['shipping', 'account', 'billing'],
      access: 'private',
      updated_number: 2,
      used_number: 1,
    })
    expect(listed.body[0].used_at).not.toBeNull()
    const dashboard = await call('GET', '/api/v1/classifiers', { bearer: key.apiKey })
    expect(dashboard.body).toEqual(listed.body)
  })

  it('keeps a private classifier to its key, lets any key use a public one, and only the owner delete it', async () => {
    const owner = await keyWithBalance(database.db, 100_000)
    const other = await keyWithBalance(database.db, 100_000)
    const train = (access: string) =>
      post('/v1/train', owner.apiKey, { model: 'embeddings-v3', access, input: examples })
    const privateId = (await train('private')).body.classifier_id
    const publicId = (await train('public')).body.classifier_id
    const use = (id: string) =>
      post('/v1/classify', other.apiKey, { classifier_id: id, input: ['Where is my parcel?'] })
    expect((await use(privateId)).status).toBe(404)
    expect((await use(publicId)).status).toBe(200)
    expect((await call('GET', '/v1/classifiers', { bearer: other.apiKey })).body).toEqual([])
    const trainOthers = await post('/v1/train', other.apiKey, { classifier_id: publicId, input: examples })
    expect(trainOthers.status).toBe(404)
    const del = (bearer: string, id: string) => call('DELETE', `/v1/classifiers/${id}`, { bearer })
    expect((await del(other.apiKey, publicId)).status).toBe(404)
    expect((await del(owner.apiKey, publicId)).body).toEqual({ classifier_id: publicId, deleted: true })
    expect((await use(publicId)).status).toBe(404)
    expect((await del(owner.apiKey, publicId)).status).toBe(404)
    expect((await del(owner.apiKey, 'not-a-uuid')).status).toBe(404)
  })

  it('refuses a 17th class, a 17th classifier and a bad body with 422 naming the limit', async () => {
    const key = await keyWithBalance(database.db, 1_000_000)
    // A paid key (125 requests a minute): a free one's 25 would run out before the checks do.
    await database.db.execute(sql`update api_keys set email = 'paid@example.com' where id = ${key.id}::uuid`)
    const seventeen = Array.from({ length: 17 }, (_, i) => ({ text: `example ${i}`, label: `class ${i}` }))
    const classes = await post('/v1/train', key.apiKey, { model: 'embeddings-v3', input: seventeen })
    expect(classes.status).toBe(422)
    expect(classes.body.detail[0].msg).toContain('16')
    for (let i = 0; i < searchLimits.maxClassifiersPerKey; i++)
      expect((await post('/v1/train', key.apiKey, { model: 'embeddings-v3', input: examples })).status).toBe(200)
    const before = await balanceOf(key.id)
    const extra = await post('/v1/train', key.apiKey, { model: 'embeddings-v3', input: examples })
    expect(extra.status).toBe(422)
    expect(extra.body.detail[0].msg).toContain('16 classifiers')
    expect(await balanceOf(key.id)).toBe(before)
    for (const json of [
      { input: examples },
      { model: 'embeddings-v3', input: [] },
      { model: 'embeddings-v3', input: [{ text: 'x' }] },
      { model: 'embeddings-v3', input: examples, num_iters: 0 },
      { model: 'embeddings-v3', input: examples, access: 'secret' },
    ])
      expect((await post('/v1/train', key.apiKey, json)).status).toBe(422)
    for (const json of [
      { model: 'embeddings-v3', input: ['x'] },
      { model: 'embeddings-v3', input: ['x'], labels: ['one'] },
      { model: 'embeddings-v3', input: ['x'], labels: ['a', 'a'] },
      { input: ['x'], labels: ['a', 'b'], classifier_id: '00000000-0000-4000-8000-000000000000' },
    ])
      expect((await post('/v1/classify', key.apiKey, json)).status).toBe(422)
  })
})

describe('an engine that fails after the request was charged', () => {
  let upstream: Server
  beforeAll(async () => {
    // A compatible API that is down: every call answers 500.
    upstream = createServer((_, response) => response.writeHead(500).end('{"detail":"boom"}'))
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve))
    const { port } = upstream.address() as { port: number }
    Object.assign(process.env, { INFERENCE_ENGINE: 'upstream', UPSTREAM_API_BASE_URL: `http://127.0.0.1:${port}` })
  })
  afterAll(async () => {
    delete process.env.INFERENCE_ENGINE
    delete process.env.UPSTREAM_API_BASE_URL
    await new Promise((resolve) => upstream.close(resolve))
  })

  it('answers 502, gives the tokens back, and shows no usage for it', async () => {
    const key = await keyWithBalance(database.db, 1000)
    const failed = await embed(key.apiKey, { model: 'embeddings-v3', input: ['a request the engine cannot answer'] })
    expect(failed.status).toBe(502)
    expect(failed.body.detail).toMatch(/Upstream API failed/)
    expect(await balanceOf(key.id)).toBe(1000)
    const today = new Date().toISOString().slice(0, 10)
    const usage = await call('GET', '/api/v1/billing/total_consumption', {
      bearer: key.apiKey,
      query: { start: today, end: today },
    })
    expect(usage.body).toMatchObject({ total_tokens: 0, by_product: {}, by_model: [] })
  })
})
