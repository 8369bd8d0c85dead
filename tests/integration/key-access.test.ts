import { randomUUID } from 'node:crypto'
import { sql } from 'drizzle-orm'
import { describe, expect, it, vi } from 'vitest'
import { rowsOf } from '~/server/db/rows'
import { hashKey } from '~/server/domain/keys'
import { SERVICE_TOKEN, call, keyWithBalance, apiDatabase, solvedCaptcha } from '../support/api'

const database = apiDatabase()

const meter = (apiKey: string, tokens: number) =>
  call('POST', '/internal/v1/usage', {
    bearer: SERVICE_TOKEN,
    json: { api_key: apiKey, product: 'reader', tokens, usage_event_id: randomUUID() },
  })

describe("one key cannot reach another key's data (test 23)", () => {
  it("answers 404 for another key's transaction and pages only the caller's own", async () => {
    const a = await keyWithBalance(database.db, 1000)
    const b = await keyWithBalance(database.db, 1000)
    await meter(a.apiKey, 10)
    await meter(a.apiKey, 20)
    await meter(b.apiKey, 5)
    const ofA = await call('GET', '/api/v1/billing/paginated_transaction', {
      bearer: a.apiKey,
      query: { num_records: '1' },
    })
    expect(ofA.body.transactions).toHaveLength(1)
    const latestOfA = ofA.body.transactions[0]
    expect(
      (
        await call('GET', '/api/v1/billing/transaction', {
          bearer: a.apiKey,
          query: { transaction_id: latestOfA.id },
        })
      ).status,
    ).toBe(200)
    const stolen = await call('GET', '/api/v1/billing/transaction', {
      bearer: b.apiKey,
      query: { transaction_id: latestOfA.id },
    })
    expect(stolen).toMatchObject({ status: 404, body: { detail: 'Transaction not found' } })
    const withForeignCursor = await call('GET', '/api/v1/billing/paginated_transaction', {
      bearer: b.apiKey,
      query: { cursor: ofA.body.next_cursor },
    })
    expect(
      withForeignCursor.body.transactions.every((t: { amount: number }) => t.amount === -5 || t.amount === 1000),
    ).toBe(true)
  })

  it('keeps alerts and consumption per key', async () => {
    const a = await keyWithBalance(database.db, 1000)
    const b = await keyWithBalance(database.db, 1000)
    await call('POST', '/api/v1/billing/balance_notification', {
      bearer: a.apiKey,
      json: { thresholds: [10], email: 'a@example.com' },
    })
    await call('DELETE', '/api/v1/billing/balance_notification', { bearer: b.apiKey })
    expect((await call('GET', '/api/v1/billing/balance_notification', { bearer: a.apiKey })).body.thresholds).toEqual([
      10,
    ])
    await meter(a.apiKey, 77)
    expect((await call('GET', '/api/v1/billing/total_consumption', { bearer: b.apiKey })).body.total_tokens).toBe(0)
    expect((await call('GET', '/api/v1/billing/total_consumption', { bearer: a.apiKey })).body).toMatchObject({
      total_tokens: 77,
      by_product: { reader: 77 },
    })
  })
})

describe('keys at rest and in logs (test 24)', () => {
  it('stores no plaintext key anywhere and never logs one', async () => {
    const logged: string[] = []
    const spies = (['log', 'info', 'warn', 'error', 'debug'] as const).map((level) =>
      vi.spyOn(console, level).mockImplementation((...args: unknown[]) => void logged.push(args.map(String).join(' '))),
    )
    try {
      const issued = await call('POST', '/api/v1/api_key/trial', {
        form: { captcha: await solvedCaptcha('new_key') },
      })
      const apiKey: string = issued.body.api_key
      const other = await keyWithBalance(database.db, 10)
      await meter(apiKey, 1)
      await call('GET', '/api/v1/api_key/fe_user', { query: { api_key: apiKey } })
      await call('POST', '/api/v1/billing/transfer_balance', {
        bearer: apiKey,
        query: { receiver_key: other.apiKey, revoke_sender_key: 'true' },
        form: { captcha: 'forged' },
      })
      await call('POST', '/api/v1/billing/transfer_balance', {
        bearer: apiKey,
        query: { receiver_key: other.apiKey, revoke_sender_key: 'true' },
        form: { captcha: await solvedCaptcha('transfer_balance') },
      })
      await call('GET', '/api/v1/api_key/fe_user', { bearer: apiKey })

      const tables = rowsOf<{ table_name: string }>(
        await database.db.execute(sql`select table_name from information_schema.tables where table_schema = 'public'`),
      )
      for (const { table_name } of tables) {
        const dump = rowsOf<{ row: string }>(
          await database.db.execute(sql`select t::text as row from ${sql.identifier(table_name)} t`),
        )
          .map((r) => r.row)
          .join('\n')
        for (const key of [apiKey, other.apiKey]) {
          expect(dump, table_name).not.toContain(key)
          expect(dump, table_name).not.toContain(key.slice(4, 24))
        }
      }
      for (const line of logged) for (const key of [apiKey, other.apiKey]) expect(line).not.toContain(key.slice(4))
    } finally {
      for (const spy of spies) spy.mockRestore()
    }
  })

  it('answers 401 everywhere once a key is revoked', async () => {
    const { apiKey } = await keyWithBalance(database.db, 100)
    const revoked = await call('DELETE', '/api/v1/api_key', {
      bearer: apiKey,
      form: { captcha: await solvedCaptcha('revoke_key') },
    })
    expect(revoked).toMatchObject({ status: 200, body: { detail: 'API key revoked' } })
    const answers = await Promise.all([
      call('GET', '/api/v1/api_key/fe_user', { query: { api_key: apiKey } }),
      call('GET', '/api/v1/api_key/fe_user', { bearer: apiKey }),
      call('GET', '/api/v1/billing/transaction', { bearer: apiKey }),
      call('GET', '/api/v1/billing/paginated_transaction', { bearer: apiKey }),
      call('GET', '/api/v1/billing/total_consumption', { bearer: apiKey }),
      call('GET', '/api/v1/billing/balance_notification', { bearer: apiKey }),
      call('DELETE', '/api/v1/api_key', { bearer: apiKey, form: { captcha: 'x' } }),
      meter(apiKey, 1),
    ])
    expect(answers.map((a) => a.status)).toEqual([401, 401, 401, 401, 401, 401, 401, 401])
    // Its holder is told why it stopped working, everywhere; only a caller with the whole key reads this.
    expect(answers.map((a) => a.body)).toEqual(answers.map(() => ({ detail: 'This API key was revoked' })))
  })

  it('tells the holder of a revoked key it was revoked on the search APIs too, and a key never issued nothing', async () => {
    const { apiKey } = await keyWithBalance(database.db, 100)
    await database.db.execute(sql`update api_keys set revoked_at = now() where key_hash = ${hashKey(apiKey)}`)
    const embed = (bearer?: string) =>
      call('POST', '/v1/embeddings', { bearer, json: { model: 'embeddings-v3', input: ['revoked?'] } })
    const revoked = await embed(apiKey)
    expect(revoked.status).toBe(401)
    expect(revoked.body).toMatchObject({
      detail: 'This API key was revoked',
      error: { message: 'This API key was revoked', code: 'invalid_api_key' },
    })
    // A key that was never issued, and none at all, still read the same: nothing says whether a key exists.
    for (const answer of [await embed(`lds_${'B'.repeat(32)}`), await embed()])
      expect(answer).toMatchObject({ status: 401, body: { detail: 'Invalid or missing API key' } })
  })

  it('answers 401 without a key and for a key that was never issued', async () => {
    expect((await call('GET', '/api/v1/api_key/fe_user')).status).toBe(401)
    expect((await call('GET', '/api/v1/billing/transaction', { bearer: `lds_${'A'.repeat(32)}` })).status).toBe(401)
    expect((await call('POST', '/internal/v1/usage', { bearer: 'wrong-token-wrong-token', json: {} })).status).toBe(401)
  })
})
