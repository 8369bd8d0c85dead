import { randomUUID } from 'node:crypto'
import { sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { Route as transactionsRoute } from '~/routes/api/v1/billing/paginated_transaction'
import { Route as summaryRoute } from '~/routes/api/v1/billing/usage_summary'
import { Route as embeddingsRoute } from '~/routes/v1/embeddings'
import { issueKey } from '~/server/domain/keys'
import { applyEntry } from '~/server/domain/ledger'
import { openSession } from '~/server/domain/sessions'
import { ensureUser } from '~/server/domain/users'
import { countTokens } from '../support/tokens'
import { apiDatabase, call } from '../support/api'

const database = apiDatabase()

const summary = (bearer: string, query: Record<string, string> = {}, headers: Record<string, string> = {}) =>
  call(summaryRoute, 'GET', '/api/v1/billing/usage_summary', { bearer, query, headers })
const embed = (bearer: string, input: unknown, options: Record<string, unknown> = {}) =>
  call(embeddingsRoute, 'POST', '/v1/embeddings', { bearer, json: { model: 'embeddings-v3', input, ...options } })

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
    const { apiKey, key } = await issueKey(database.db, 'empty', { ownerId: uid, name: 'main' })
    // 1,000,000 tokens for $20.00: $20 a million.
    await buy(key.id, 1_000_000, 2000)
    const texts = ['the first request', 'the second, a little longer request']
    for (const text of texts) expect((await embed(apiKey, [text])).status).toBe(200)
    expect((await embed(apiKey, ['refused'], { dimensions: 2 })).status).toBe(422)
    const tokens = texts.reduce((sum, text) => sum + countTokens(text), 0)

    const answer = await summary(apiKey)
    expect(answer.status).toBe(200)
    const { totals, by_model, by_day, price, balance } = answer.body
    expect(totals).toEqual({ requests: 2, refused: 1, tokens, cost: Math.round(tokens * 20e-6 * 100) / 100 })
    expect(price).toEqual({ currency: 'USD', per_million_tokens: 20, purchases: 1 })
    expect(by_model).toEqual([
      expect.objectContaining({ product: 'embeddings', model: 'embeddings-v3', requests: 2, refused: 1, tokens }),
    ])
    expect(by_day).toHaveLength(1)
    // The bar's scale is the largest balance the key held in the period: right after the purchase.
    expect(balance).toEqual({ current: 1_000_000 - tokens, scale: 1_000_000, basis: 'largest_balance' })

    // Another key of the account: together for the signed-in owner, and apart with key_id.
    const second = await issueKey(database.db, 'empty', { ownerId: uid })
    await buy(second.key.id, 500_000, 1000)
    expect((await embed(second.apiKey, ['a request of the second key'])).status).toBe(200)
    const { token } = await openSession(database.db, uid, 1)
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

  it('has no price without a purchase, and refuses a reversed range', async () => {
    const { apiKey } = await issueKey(database.db, 'trial')
    const answer = await summary(apiKey)
    expect(answer.body.price).toBeNull()
    expect(answer.body.totals.cost).toBeNull()
    expect(answer.body.balance.basis).toBe('largest_balance')
    expect((await summary(apiKey, { start: '2026-02-01', end: '2026-01-01' })).status).toBe(422)
  })

  it('explains entries that are not plain usage: a failed request given back, a refund', async () => {
    const { apiKey, key } = await issueKey(database.db, 'empty')
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
    const page = await call(transactionsRoute, 'GET', '/api/v1/billing/paginated_transaction', { bearer: apiKey })
    expect(page.body.transactions.map((tx: { type: string; reason: string | null }) => [tx.type, tx.reason])).toEqual([
      ['refund', 'payment_refund'],
      ['adjustment', 'unused_reservation'],
      ['consume', null],
      ['adjustment', 'failed_request'],
      ['consume', null],
      ['purchase', null],
    ])
  })
})
