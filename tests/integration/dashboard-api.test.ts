import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { SERVICE_TOKEN, call, keyWithBalance, apiDatabase } from '../support/api'

const database = apiDatabase()

const meter = (apiKey: string, tokens: number, product = 'embeddings', usage_event_id = randomUUID()) =>
  call('POST', '/internal/v1/usage', {
    bearer: SERVICE_TOKEN,
    json: { api_key: apiKey, product, model: 'embeddings-v3', tokens, usage_event_id },
  })

describe('key info and transactions', () => {
  it('answers the key info of spec §3 with a display form of the key, never the key', async () => {
    const key = await keyWithBalance(database.db, 42)
    const { body } = await call('GET', '/api/v1/api_key/fe_user', { bearer: key.apiKey })
    expect(body).toEqual({
      key_id: key.id,
      key_display: `${key.apiKey.slice(0, 8)}…${key.apiKey.slice(-4)}`,
      email: null,
      wallet: { total_balance: 42 },
      metadata: { speed_level: 1, auto_recharge: false },
      created_at: expect.any(String),
    })
  })

  it('answers null before the first transaction, then the latest one', async () => {
    const key = await keyWithBalance(database.db, 0)
    expect((await call('GET', '/api/v1/billing/transaction', { bearer: key.apiKey })).body).toBeNull()
    const rich = await keyWithBalance(database.db, 100)
    await meter(rich.apiKey, 30, 'reranker')
    expect((await call('GET', '/api/v1/billing/transaction', { bearer: rich.apiKey })).body).toMatchObject({
      type: 'consume',
      amount: -30,
      balance_after: 70,
      product: 'reranker',
    })
  })

  it('pages through all transactions with num_records and next_cursor, newest first', async () => {
    const key = await keyWithBalance(database.db, 1000)
    for (let i = 1; i <= 6; i++) await meter(key.apiKey, i)
    const seen: number[] = []
    let cursor: string | undefined
    let pages = 0
    do {
      const { body } = await call('GET', '/api/v1/billing/paginated_transaction', {
        bearer: key.apiKey,
        query: { num_records: '3', ...(cursor ? { cursor } : {}) },
      })
      seen.push(...body.transactions.map((t: { amount: number }) => t.amount))
      cursor = body.next_cursor ?? undefined
      pages++
    } while (cursor)
    expect(pages).toBe(3)
    expect(seen).toEqual([-6, -5, -4, -3, -2, -1, 1000])
    const one = await call('GET', '/api/v1/billing/paginated_transaction', {
      bearer: key.apiKey,
      query: { num_records: '1' },
    })
    expect(one.body.transactions).toHaveLength(1)
  })

  it('totals consumption per product and per day', async () => {
    const key = await keyWithBalance(database.db, 1000)
    await meter(key.apiKey, 10, 'embeddings')
    await meter(key.apiKey, 5, 'reader')
    await meter(key.apiKey, 7, 'embeddings')
    const today = new Date().toISOString().slice(0, 10)
    const { body } = await call('GET', '/api/v1/billing/total_consumption', {
      bearer: key.apiKey,
      query: { start: today, end: today },
    })
    expect(body).toMatchObject({
      total_tokens: 22,
      by_product: { embeddings: 17, reader: 5 },
      by_day: [{ date: today, total_tokens: 22, by_product: { embeddings: 17, reader: 5 } }],
      by_model: [
        { product: 'embeddings', model: 'embeddings-v3', tokens: 17 },
        { product: 'reader', model: 'embeddings-v3', tokens: 5 },
      ],
    })
  })

  it('meters a usage event once and answers 402 when the balance is exhausted', async () => {
    const key = await keyWithBalance(database.db, 10)
    const event = randomUUID()
    expect((await meter(key.apiKey, 8, 'reader', event)).body).toMatchObject({ balance: 2, duplicate: false })
    expect((await meter(key.apiKey, 8, 'reader', event)).body).toMatchObject({ balance: 2, duplicate: true })
    expect(await meter(key.apiKey, 3)).toMatchObject({ status: 402, body: { detail: 'Insufficient balance' } })
  })
})

describe('catalogue and packs', () => {
  it('lists the free pack first, then only packs with an allowed price id', async () => {
    const { body } = await call('GET', '/api/v1/product')
    expect(body[0]).toMatchObject({ price: 0, currency: 'USD', token_quantity: 10_000_000 })
    expect(body.slice(1).map((p: { price_id: string }) => p.price_id)).toEqual(['price_tokens_1b', 'price_tokens_11b'])
    for (const pack of body)
      expect(Object.keys(pack).sort()).toEqual([
        'currency',
        'id',
        'price',
        'price_id',
        'product_description',
        'product_id',
        'product_name',
        'token_quantity',
      ])
  })

  it('filters models by every repeated tag and answers one model with num_replicas', async () => {
    const all = (await call('GET', '/api/v1/models')).body
    const rerankers = (await call('GET', '/api/v1/models', { query: { tag: ['reranker'] } })).body
    const multilingualRerankers = (
      await call('GET', '/api/v1/models', { query: { tag: ['reranker', 'multilingual'] } })
    ).body
    expect(all.length).toBeGreaterThan(rerankers.length)
    expect(rerankers.every((m: { tags: string[] }) => m.tags.includes('reranker'))).toBe(true)
    expect(multilingualRerankers.every((m: { tags: string[] }) => m.tags.includes('multilingual'))).toBe(true)
    const { status, body } = await call('GET', '/api/v1/models/slug/reranker-v3', {})
    expect(status).toBe(200)
    expect(body).toMatchObject({ slug: 'reranker-v3', num_replicas: expect.any(Number), parameters: '0.6B' })
    expect(body.description).toMatch(/\w+ \w+/)
  })
})

describe('OpenAPI document', () => {
  it('describes every route in OpenAPI 3.1 with schemas generated from the validators', async () => {
    const { body } = await call('GET', '/api/v1/openapi.json')
    expect(body.openapi).toBe('3.1.0')
    expect(Object.keys(body.paths)).toContain('/api/v1/billing/transfer_balance')
    const notification =
      body.paths['/api/v1/billing/balance_notification'].post.requestBody.content['application/json'].schema
    expect(notification.properties.thresholds).toMatchObject({
      type: 'array',
      maxItems: 3,
      items: { type: 'integer', minimum: 1 },
    })
    expect(notification.additionalProperties).toBe(false)
    const paging = body.paths['/api/v1/billing/paginated_transaction'].get.parameters
    expect(paging.find((p: { name: string }) => p.name === 'num_records')).toMatchObject({
      in: 'query',
      required: false,
      schema: { type: 'string', default: '20' },
    })
    const usage = body.paths['/internal/v1/usage'].post.requestBody.content['application/json'].schema
    expect(usage.required).toEqual(['product', 'tokens', 'usage_event_id'])
    expect(usage.properties.key_id.format).toBe('uuid')
  })
})
