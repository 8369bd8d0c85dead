import { randomUUID } from 'node:crypto'
import { sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { rowsOf } from '~/server/db/rows'
import { auditLedger } from '~/server/domain/ledger'
import { SERVICE_TOKEN, apiDatabase, call, keyWithBalance, scalar } from '../support/api'
import { countTokens } from '../support/tokens'

// Spend limits are judged and counted inside ledger_apply_v3 with the limit rows locked. With TEST_DATABASE_URL
// this file runs on the real Postgres, where concurrent transactions could both read a limit's count before
// either adds to it if the lock were missing; the embedded pass runs it again on PGlite (one at a time).
describe('spend limits under concurrency', () => {
  const database = apiDatabase({ maxConnections: 20 })

  /** A premium key (5,000 requests a minute), so the per-minute limit is never what refuses. */
  async function premiumKey(balance: number) {
    const key = await keyWithBalance(database.db, balance)
    await database.db.execute(sql`update api_keys set speed_level = 2 where id = ${key.id}::uuid`)
    return key
  }
  const addLimit = (keyId: string, unit: string, amount: number, period: string) =>
    database.db.execute(sql`insert into spend_limits (subject_kind, subject_id, unit, amount, period)
      values ('key', ${keyId}::uuid, ${unit}, ${amount}::numeric, ${period})`)
  const limitsOf = async (keyId: string) =>
    rowsOf<{ unit: string; used: string }>(
      await database.db.execute(
        sql`select unit, used from spend_limits where subject_id = ${keyId}::uuid order by unit, amount`,
      ),
    ).map((l) => ({ unit: l.unit, used: Number(l.used) }))
  const consumed = (keyId: string) =>
    scalar(
      database.db,
      sql`select coalesce(-sum(amount), 0) from ledger_entries where key_id = ${keyId}::uuid
        and (type = 'consume' or (type = 'adjustment' and external_ref like 'usage-reversal:%'))`,
    )

  it('50 concurrent requests against a token limit worth 20 of them: 20 answered, 30 refused with 402', async () => {
    const text = 'Concurrent requests race for the last tokens of a spend limit.'
    const perRequest = countTokens(text)
    const key = await premiumKey(1_000 * perRequest)
    await addLimit(key.id, 'tokens', 20 * perRequest, 'day')
    const answers = await Promise.all(
      Array.from({ length: 50 }, () =>
        call('POST', '/v1/embeddings', { bearer: key.apiKey, json: { model: 'embeddings-v3', input: [text] } }),
      ),
    )
    const statuses = answers.map((a) => a.status)
    expect(statuses.filter((s) => s === 200)).toHaveLength(20)
    const refused = answers.filter((a) => a.status === 402)
    expect(refused).toHaveLength(30)
    for (const answer of refused) expect(answer.body.detail).toMatch(/daily spend limit of [\d,]+ tokens is reached/)
    expect(await consumed(key.id)).toBe(20 * perRequest)
    expect(await limitsOf(key.id)).toEqual([{ unit: 'tokens', used: 20 * perRequest }])
    expect(await auditLedger(database.db)).toEqual([])
  })

  it('50 concurrent debits of uneven sizes against a dollar and a token limit never pass either', async () => {
    const key = await premiumKey(10_000_000)
    // Bought at $1 for 10,000 tokens: $0.10 a week allows 1,000 tokens; the month allows 1,500 tokens.
    await database.db
      .execute(sql`insert into purchases (key_id, provider, kind, price_id, tokens, amount, currency, status, paid_at)
      values (${key.id}::uuid, 'sandbox', 'checkout', 'price_tokens_1b', 10000, 100, 'usd', 'paid', now())`)
    await addLimit(key.id, 'usd', 0.1, 'week')
    await addLimit(key.id, 'tokens', 1_500, 'month')
    const sizes = Array.from({ length: 50 }, (_, i) => 17 + ((i * 37) % 60))
    const answers = await Promise.all(
      sizes.map((tokens) =>
        call('POST', '/internal/v1/usage', {
          bearer: SERVICE_TOKEN,
          json: { api_key: key.apiKey, product: 'embeddings', tokens, usage_event_id: randomUUID() },
        }),
      ),
    )
    const answered = sizes.filter((_, i) => answers[i].status === 200)
    const total = answered.reduce((sum, n) => sum + n, 0)
    expect(answers.every((a) => a.status === 200 || a.status === 402)).toBe(true)
    expect(answers.filter((a) => a.status === 402).length).toBeGreaterThan(0)
    expect(total).toBeLessThanOrEqual(1_000)
    for (const answer of answers)
      if (answer.status === 402) expect(answer.body.detail).toContain('weekly spend limit of $0.10')
    expect(1_000 - total).toBeLessThan(Math.max(...sizes))
    expect(await consumed(key.id)).toBe(total)
    expect(await limitsOf(key.id)).toEqual([
      { unit: 'tokens', used: total },
      { unit: 'usd', used: total },
    ])
    expect(await auditLedger(database.db)).toEqual([])
  })

  it('50 concurrent deep-search runs reserving and settling never take a limit past it, and it counts what they used', async () => {
    const key = await premiumKey(10_000_000)
    await addLimit(key.id, 'tokens', 20_000, 'month')
    const answers = await Promise.all(
      Array.from({ length: 50 }, () =>
        call('POST', '/v1/chat/completions', {
          bearer: key.apiKey,
          json: { model: 'deepsearch-v1', messages: [{ role: 'user', content: 'What does a reranker do?' }] },
        }),
      ),
    )
    expect(answers.every((a) => a.status === 200 || a.status === 402)).toBe(true)
    expect(answers.some((a) => a.status === 200)).toBe(true)
    // A run gives back what it reserved and did not use as its stream ends, just after its answer is read.
    let [limit] = await limitsOf(key.id)
    for (let wait = 0; wait < 50 && limit.used !== (await consumed(key.id)); wait++) {
      await new Promise((resolve) => setTimeout(resolve, 100))
      ;[limit] = await limitsOf(key.id)
    }
    expect(limit.used).toBeLessThanOrEqual(20_000)
    expect(limit.used).toBe(await consumed(key.id))
    expect(await auditLedger(database.db)).toEqual([])
  })
})
