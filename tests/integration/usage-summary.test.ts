import { randomUUID } from 'node:crypto'
import { sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { bySystem } from '~/server/domain/audit'
import { issueKey } from '~/server/domain/keys'
import { applyEntry } from '~/server/domain/ledger'
import { openSession } from '~/server/domain/sessions'
import { ensureUser } from '~/server/domain/users'
import { countTokens } from '../support/tokens'
import { apiDatabase, call, solvedCaptcha } from '../support/api'

const database = apiDatabase()

const summary = (bearer: string, query: Record<string, string> = {}, headers: Record<string, string> = {}) =>
  call('GET', '/api/v1/billing/usage_summary', { bearer, query, headers })
const embed = (bearer: string, input: unknown, options: Record<string, unknown> = {}) =>
  call('POST', '/v1/embeddings', { bearer, json: { model: 'embeddings-v3', input, ...options } })

/** A paid purchase of `tokens` for `amount` cents, credited as the checkout would. */
async function buy(keyId: string, tokens: number, amount: number) {
  const id = randomUUID()
  await database.db
    .execute(sql`insert into purchases (id, key_id, provider, kind, price_id, tokens, amount, currency, status, paid_at)
    values (${id}::uuid, ${keyId}::uuid, 'sandbox', 'checkout', 'price_tokens_1b', ${tokens}, ${amount}, 'usd', 'paid', now())`)
  await applyEntry(database.db, { keyId, amount: tokens, type: 'purchase', externalRef: `purchase:${id}` })
}

describe('the usage summary', () => {
  it('counts requests answered and refused, tokens net of those given back, and prices them at what was paid', async () => {
    const uid = `summary-${randomUUID()}`
    await ensureUser(database.db, { uid, email: `${uid}@example.com` })
    const { apiKey, key } = await issueKey(database.db, bySystem, 'empty', { ownerId: uid, name: 'main' })
    // 1,000,000 tokens for $20.00: $20 a million.
    await buy(key.id, 1_000_000, 2000)
    const texts = ['the first request', 'the second, a little longer request']
    for (const text of texts) expect((await embed(apiKey, [text])).status).toBe(200)
    expect((await embed(apiKey, ['refused'], { dimensions: 2 })).status).toBe(422)
    const tokens = texts.reduce((sum, text) => sum + countTokens(text), 0)

    const answer = await summary(apiKey)
    expect(answer.status).toBe(200)
    const { totals, by_model, by_day, price, balance } = answer.body
    expect(totals).toEqual({ requests: 2, refused: 1, failed: 0, tokens, cost: Math.round(tokens * 20e-6 * 100) / 100 })
    expect(price).toEqual({ currency: 'USD', per_million_tokens: 20, purchases: 1, transferred: 0 })
    expect(by_model).toEqual([
      expect.objectContaining({ product: 'embeddings', model: 'embeddings-v3', requests: 2, refused: 1, tokens }),
    ])
    expect(by_day).toHaveLength(1)
    // The bar's scale is the largest balance the key held in the period: right after the purchase.
    expect(balance).toEqual({ current: 1_000_000 - tokens, scale: 1_000_000, basis: 'largest_balance' })

    // Another key of the account: together for the signed-in owner, and apart with key_id.
    const second = await issueKey(database.db, bySystem, 'empty', { ownerId: uid })
    await buy(second.key.id, 500_000, 1000)
    expect((await embed(second.apiKey, ['a request of the second key'])).status).toBe(200)
    const { token } = await openSession(database.db, bySystem, uid, 1)
    const together = await summary(apiKey, {}, { cookie: `session=${token}` })
    expect(together.body.by_key.map((row: { label: string; requests: number }) => [row.label, row.requests])).toEqual(
      expect.arrayContaining([
        ['main', 2],
        [`${second.key.prefix}…${second.key.last4}`, 1],
      ]),
    )
    expect(together.body.totals.requests).toBe(3)
    expect(together.body.price.purchases).toBe(2)
    const apart = await summary(apiKey, { key_id: second.key.id }, { cookie: `session=${token}` })
    expect(apart.body.totals.requests).toBe(1)
    // Without the owner's session the other key is not the caller's to see.
    expect((await summary(apiKey, { key_id: second.key.id })).status).toBe(422)
  })

  it('prices tokens a transfer brought at what the sending key paid for them', async () => {
    const sender = await issueKey(database.db, bySystem, 'empty')
    // 1,000,000 tokens for $30.00: $30 a million.
    await buy(sender.key.id, 1_000_000, 3000)
    const receiver = await issueKey(database.db, bySystem, 'trial')
    const moved = await call('POST', '/api/v1/billing/transfer_balance', {
      bearer: sender.apiKey,
      query: { receiver_key: receiver.apiKey, revoke_sender_key: 'true' },
      form: { captcha: await solvedCaptcha('transfer_balance') },
    })
    expect(moved.status).toBe(200)
    const text = 'a request paid with transferred tokens'
    expect((await embed(receiver.apiKey, [text])).status).toBe(200)
    const { price, totals } = (await summary(receiver.apiKey)).body
    expect(price).toEqual({ currency: 'USD', per_million_tokens: 30, purchases: 1, transferred: 1 })
    expect(totals.cost).toBe(Math.round(countTokens(text) * 30e-6 * 100) / 100)
    expect(totals.cost).not.toBeNull()
  })

  it('counts a 5xx as failed, as the request log says, and a 4xx as refused', async () => {
    const { apiKey, key } = await issueKey(database.db, bySystem, 'trial')
    for (const [status, requestId] of [
      [502, 'upstream-down'],
      [429, 'too-fast'],
      [200, 'answered'],
    ] as const)
      await database.db
        .execute(sql`insert into request_log (key_id, request_id, product, model, latency_ms, status, created_at)
        values (${key.id}::uuid, ${requestId}, 'rerank', 'reranker-v2', 5, ${status}, now())`)
    const { totals, by_model } = (await summary(apiKey)).body
    expect(totals).toMatchObject({ requests: 1, refused: 1, failed: 1 })
    expect(by_model).toEqual([expect.objectContaining({ product: 'rerank', requests: 1, refused: 1, failed: 1 })])
  })

  it('has no price without a purchase, and refuses a reversed range', async () => {
    const { apiKey } = await issueKey(database.db, bySystem, 'trial')
    const answer = await summary(apiKey)
    expect(answer.body.price).toBeNull()
    expect(answer.body.totals.cost).toBeNull()
    expect(answer.body.balance.basis).toBe('largest_balance')
    expect((await summary(apiKey, { start: '2026-02-01', end: '2026-01-01' })).status).toBe(422)
  })

  it('explains entries that are not plain usage: a failed request given back, a refund', async () => {
    const { apiKey, key } = await issueKey(database.db, bySystem, 'empty')
    await buy(key.id, 1000, 100)
    await applyEntry(database.db, {
      keyId: key.id,
      amount: -10,
      type: 'consume',
      externalRef: 'usage:v1:x:failed',
      product: 'embeddings',
    })
    await applyEntry(database.db, {
      keyId: key.id,
      amount: 10,
      type: 'adjustment',
      externalRef: 'usage-reversal:v1:x:failed',
      product: 'embeddings',
    })
    await applyEntry(database.db, {
      keyId: key.id,
      amount: -7,
      type: 'consume',
      externalRef: 'usage:v1:x:ds',
      product: 'deepsearch',
    })
    await applyEntry(database.db, {
      keyId: key.id,
      amount: 5,
      type: 'adjustment',
      externalRef: 'usage-reversal:v1:x:ds',
      product: 'deepsearch',
    })
    await applyEntry(database.db, { keyId: key.id, amount: -100, type: 'refund', externalRef: 'refund:ch_1:100' })
    const page = await call('GET', '/api/v1/billing/paginated_transaction', { bearer: apiKey })
    expect(page.body.transactions.map((tx: { type: string; reason: string | null }) => [tx.type, tx.reason])).toEqual([
      ['refund', 'payment_refund'],
      ['adjustment', 'unused_reservation'],
      ['consume', null],
      ['adjustment', 'failed_request'],
      ['consume', null],
      ['purchase', null],
    ])
  })

  it('lists one deep search as one row with its net tokens when asked to group requests, page by page', async () => {
    const { apiKey, key } = await issueKey(database.db, bySystem, 'trial')
    const event = `v1:${key.id}:req-ds:${randomUUID()}`
    const entry = (amount: number, externalRef: string, product = 'deepsearch') =>
      applyEntry(database.db, {
        keyId: key.id,
        amount,
        type: amount < 0 ? 'consume' : 'adjustment',
        externalRef,
        product,
        model: `${product}-v1`,
      })
    // A deep search reserves twice as it runs, another request lands between, and it gives back what it did not use.
    await entry(-2048, `usage:${event}`)
    await entry(-3, `usage:v1:${key.id}:req-embed`, 'embeddings')
    await entry(-2048, `usage:${event}:2`)
    await entry(1978, `usage-reversal:${event}`)
    // A failed request and its refund: one row, costing nothing.
    await entry(-10, `usage:v1:${key.id}:req-failed`, 'embeddings')
    await entry(10, `usage-reversal:v1:${key.id}:req-failed`, 'embeddings')
    const rows = (body: { transactions: Array<Record<string, unknown>> }) =>
      body.transactions.map((tx) => [tx.product, tx.amount, tx.reason ?? null, tx.request ?? null])
    const grouped = await call('GET', '/api/v1/billing/paginated_transaction', {
      bearer: apiKey,
      query: { group_requests: 'true' },
    })
    expect(grouped.status).toBe(200)
    const expected = [
      ['embeddings', 0, 'failed_request', { entries: 2, reserved: 10, given_back: 10 }],
      ['deepsearch', -2118, 'unused_reservation', { entries: 3, reserved: 4096, given_back: 1978 }],
      ['embeddings', -3, null, null],
      [null, 10_000_000, null, null],
    ]
    expect(rows(grouped.body)).toEqual(expected)
    // One row a page: each request once, whatever falls on which page.
    const walked: unknown[] = []
    let cursor: string | undefined
    do {
      const page = await call('GET', '/api/v1/billing/paginated_transaction', {
        bearer: apiKey,
        query: { group_requests: 'true', num_records: '1', ...(cursor ? { cursor } : {}) },
      })
      walked.push(...rows(page.body))
      cursor = page.body.next_cursor ?? undefined
    } while (cursor)
    expect(walked).toEqual(expected)
    // Without the flag, every ledger entry as before.
    const raw = await call('GET', '/api/v1/billing/paginated_transaction', { bearer: apiKey })
    expect(raw.body.transactions).toHaveLength(7)
  })
})
