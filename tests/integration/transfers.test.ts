import { randomUUID } from 'node:crypto'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Route as challengeRoute } from '~/routes/api/v1/captcha/challenge'
import { Route as feUserRoute } from '~/routes/api/v1/api_key/fe_user'
import { Route as transferRoute } from '~/routes/api/v1/billing/transfer_balance'
import { Route as transactionRoute } from '~/routes/api/v1/billing/transaction'
import { auditLedger } from '~/server/domain/ledger'
import { consume } from '~/server/domain/metering'
import { transferBalance } from '~/server/domain/transfers'
import { call, keyWithBalance, scalar, setupApi, solvedCaptcha, testEnv } from '../support/api'
import { outcomeOf } from '../support/outcome'
import { describeWithService } from '../support/services'

testEnv()
let database: Awaited<ReturnType<typeof setupApi>>
beforeAll(async () => {
  database = await setupApi({ maxConnections: 30 })
})
afterAll(() => database.close())

const balanceOf = (id: string) => scalar(database.db, sql`select balance from api_keys where id = ${id}::uuid`)
const transfer = (from: string, receiver: string, captcha: string) =>
  call(transferRoute, 'POST', '/api/v1/billing/transfer_balance', {
    bearer: from,
    query: { receiver_key: receiver, revoke_sender_key: 'true' },
    form: { captcha },
  })

describe('transfers', () => {
  it('moves the whole balance and revokes the sender; the receiver sees a transfer_in', async () => {
    const a = await keyWithBalance(database.db, 1234)
    const b = await keyWithBalance(database.db, 10)
    const { status, body } = await transfer(a.apiKey, b.apiKey, await solvedCaptcha(challengeRoute, 'transfer_balance'))
    expect(status).toBe(200)
    expect(body).toMatchObject({ amount: 1234, sender_balance: 0, receiver_balance: 1244, sender_revoked: true })
    expect(
      (await call(feUserRoute, 'GET', '/api/v1/api_key/fe_user', { bearer: b.apiKey })).body.wallet.total_balance,
    ).toBe(1244)
    expect(
      (await call(transactionRoute, 'GET', '/api/v1/billing/transaction', { bearer: b.apiKey })).body,
    ).toMatchObject({ type: 'transfer_in', amount: 1234 })
  })

  it('refuses the same transfer submitted twice (test 9)', async () => {
    const a = await keyWithBalance(database.db, 50)
    const b = await keyWithBalance(database.db, 0)
    const first = await transfer(a.apiKey, b.apiKey, await solvedCaptcha(challengeRoute, 'transfer_balance'))
    const second = await transfer(a.apiKey, b.apiKey, await solvedCaptcha(challengeRoute, 'transfer_balance'))
    expect([first.status, second.status]).toEqual([200, 401])
    expect(await balanceOf(b.id)).toBe(50)
    expect(await outcomeOf(transferBalance(database.db, a.id, b.id))).toBe('KeyRevoked')
  })

  it('refuses a transfer to itself, to an unknown key and to a revoked key, changing nothing (test 10)', async () => {
    const a = await keyWithBalance(database.db, 70)
    const revoked = await keyWithBalance(database.db, 5)
    await database.db.execute(sql`update api_keys set revoked_at = now() where id = ${revoked.id}::uuid`)
    const self = await transfer(a.apiKey, a.apiKey, await solvedCaptcha(challengeRoute, 'transfer_balance'))
    const unknown = await transfer(
      a.apiKey,
      `lds_${'x'.repeat(32)}`,
      await solvedCaptcha(challengeRoute, 'transfer_balance'),
    )
    const toRevoked = await transfer(a.apiKey, revoked.apiKey, await solvedCaptcha(challengeRoute, 'transfer_balance'))
    expect([self.status, unknown.status, toRevoked.status]).toEqual([400, 404, 404])
    expect(self.body.detail).toBe('Cannot transfer balance to the same key')
    expect(await balanceOf(a.id)).toBe(70)
    expect(await balanceOf(revoked.id)).toBe(5)
    expect((await call(feUserRoute, 'GET', '/api/v1/api_key/fe_user', { bearer: a.apiKey })).status).toBe(200)
  })

  it('refuses a revoked sender everywhere at once (test 10)', async () => {
    const a = await keyWithBalance(database.db, 30)
    const b = await keyWithBalance(database.db, 0)
    expect((await transfer(a.apiKey, b.apiKey, await solvedCaptcha(challengeRoute, 'transfer_balance'))).status).toBe(
      200,
    )
    expect((await call(feUserRoute, 'GET', '/api/v1/api_key/fe_user', { query: { api_key: a.apiKey } })).status).toBe(
      401,
    )
    expect((await call(transactionRoute, 'GET', '/api/v1/billing/transaction', { bearer: a.apiKey })).status).toBe(401)
    expect(
      await outcomeOf(consume(database.db, { keyId: a.id, tokens: 1, usageEventId: randomUUID(), product: 'reader' })),
    ).toBe('KeyRevoked')
  })
})

describeWithService('TEST_DATABASE_URL', 'transfers under concurrency [PG]', () => {
  it('lands each of 50 racing consumes before the transfer or refuses it; total conserved (test 7)', async () => {
    const a = await keyWithBalance(database.db, 10_000)
    const b = await keyWithBalance(database.db, 500)
    const consumes = Array.from({ length: 50 }, () =>
      outcomeOf(consume(database.db, { keyId: a.id, tokens: 10, usageEventId: randomUUID(), product: 'embeddings' })),
    )
    const moved = transferBalance(database.db, a.id, b.id)
    const statuses = await Promise.all(consumes)
    const result = await moved
    const landed = statuses.filter((s) => s === 'ok').length
    expect(statuses.every((s) => s === 'ok' || s === 'KeyRevoked')).toBe(true)
    expect(result.amount).toBe(10_000 - 10 * landed)
    expect(await balanceOf(a.id)).toBe(0)
    expect(
      await scalar(database.db, sql`select count(*) from api_keys where id = ${a.id}::uuid and revoked_at is not null`),
    ).toBe(1)
    expect((await balanceOf(b.id)) + 10 * landed).toBe(10_500)
    expect(await auditLedger(database.db)).toEqual([])
  })

  it('finishes A→B racing B→A without a deadlock: one succeeds, the other is refused (test 8)', async () => {
    for (let round = 0; round < 10; round++) {
      const a = await keyWithBalance(database.db, 100)
      const b = await keyWithBalance(database.db, 200)
      const statuses = await Promise.all([
        outcomeOf(transferBalance(database.db, a.id, b.id)),
        outcomeOf(transferBalance(database.db, b.id, a.id)),
      ])
      // The loser's receiver is the winner's sender, revoked by then.
      expect(statuses.sort()).toEqual(['ReceiverNotFound', 'ok'])
      expect((await balanceOf(a.id)) + (await balanceOf(b.id))).toBe(300)
    }
    expect(await auditLedger(database.db)).toEqual([])
  })
})
