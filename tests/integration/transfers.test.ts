import { randomUUID } from 'node:crypto'
import { sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { bySystem } from '~/server/domain/audit'
import { auditLedger } from '~/server/domain/ledger'
import { consume } from '~/server/domain/metering'
import { transferBalance } from '~/server/domain/transfers'
import { call, keyWithBalance, scalar, apiDatabase, solvedCaptcha } from '../support/api'
import { outcomeOf } from '../support/outcome'
import { describeWithService } from '../support/services'

const database = apiDatabase({ maxConnections: 30 })

const balanceOf = (id: string) => scalar(database.db, sql`select balance from api_keys where id = ${id}::uuid`)
const transfer = (from: string, receiver: string, captcha: string) =>
  call('POST', '/api/v1/billing/transfer_balance', {
    bearer: from,
    query: { receiver_key: receiver, revoke_sender_key: 'true' },
    form: { captcha },
  })

describe('transfers', () => {
  it('moves the whole balance and revokes the sender; the receiver sees a transfer_in', async () => {
    const a = await keyWithBalance(database.db, 1234)
    const b = await keyWithBalance(database.db, 10)
    const { status, body } = await transfer(a.apiKey, b.apiKey, await solvedCaptcha('transfer_balance'))
    expect(status).toBe(200)
    expect(body).toMatchObject({ amount: 1234, sender_balance: 0, receiver_balance: 1244, sender_revoked: true })
    expect((await call('GET', '/api/v1/api_key/fe_user', { bearer: b.apiKey })).body.wallet.total_balance).toBe(1244)
    expect((await call('GET', '/api/v1/billing/transaction', { bearer: b.apiKey })).body).toMatchObject({
      type: 'transfer_in',
      amount: 1234,
    })
  })

  it('refuses the same transfer submitted twice (test 9)', async () => {
    const a = await keyWithBalance(database.db, 50)
    const b = await keyWithBalance(database.db, 0)
    const first = await transfer(a.apiKey, b.apiKey, await solvedCaptcha('transfer_balance'))
    const second = await transfer(a.apiKey, b.apiKey, await solvedCaptcha('transfer_balance'))
    expect([first.status, second.status]).toEqual([200, 401])
    expect(await balanceOf(b.id)).toBe(50)
    expect(await outcomeOf(transferBalance(database.db, bySystem, a.id, b.id))).toBe('KeyRevoked')
  })

  it('refuses a transfer to itself, to an unknown key and to a revoked key, changing nothing (test 10)', async () => {
    const a = await keyWithBalance(database.db, 70)
    const revoked = await keyWithBalance(database.db, 5)
    await database.db.execute(sql`update api_keys set revoked_at = now() where id = ${revoked.id}::uuid`)
    const self = await transfer(a.apiKey, a.apiKey, await solvedCaptcha('transfer_balance'))
    const unknown = await transfer(a.apiKey, `lds_${'x'.repeat(32)}`, await solvedCaptcha('transfer_balance'))
    const toRevoked = await transfer(a.apiKey, revoked.apiKey, await solvedCaptcha('transfer_balance'))
    expect([self.status, unknown.status, toRevoked.status]).toEqual([400, 404, 404])
    expect(self.body.detail).toBe('Cannot transfer balance to the same key')
    expect(await balanceOf(a.id)).toBe(70)
    expect(await balanceOf(revoked.id)).toBe(5)
    expect((await call('GET', '/api/v1/api_key/fe_user', { bearer: a.apiKey })).status).toBe(200)
  })

  it('refuses a revoked sender everywhere at once (test 10)', async () => {
    const a = await keyWithBalance(database.db, 30)
    const b = await keyWithBalance(database.db, 0)
    expect((await transfer(a.apiKey, b.apiKey, await solvedCaptcha('transfer_balance'))).status).toBe(200)
    expect((await call('GET', '/api/v1/api_key/fe_user', { query: { api_key: a.apiKey } })).status).toBe(401)
    expect((await call('GET', '/api/v1/billing/transaction', { bearer: a.apiKey })).status).toBe(401)
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
    const moved = transferBalance(database.db, bySystem, a.id, b.id)
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
        outcomeOf(transferBalance(database.db, bySystem, a.id, b.id)),
        outcomeOf(transferBalance(database.db, bySystem, b.id, a.id)),
      ])
      // The loser's receiver is the winner's sender, revoked by then.
      expect(statuses.sort()).toEqual(['ReceiverNotFound', 'ok'])
      expect((await balanceOf(a.id)) + (await balanceOf(b.id))).toBe(300)
    }
    expect(await auditLedger(database.db)).toEqual([])
  })
})

describe("a transfer is judged by the sending key's controls", () => {
  /** Sets a key's controls as the account endpoint stores them. */
  const control = (id: string, set: ReturnType<typeof sql>) =>
    database.db.execute(sql`update api_keys set ${set} where id = ${id}::uuid`)
  const unchanged = async (sender: { id: string }, receiver: { id: string }, balances: [number, number]) => {
    expect([await balanceOf(sender.id), await balanceOf(receiver.id)]).toEqual(balances)
    expect(
      await scalar(
        database.db,
        sql`select count(*) from api_keys where id = ${sender.id}::uuid and revoked_at is null`,
      ),
    ).toBe(1)
  }
  const captcha = () => solvedCaptcha('transfer_balance')

  it('refuses a capped key whose balance is more than its caps leave, and moves one the caps allow', async () => {
    const receiver = await keyWithBalance(database.db, 0)
    const daily = await keyWithBalance(database.db, 10_000)
    await control(daily.id, sql`daily_cap = 1000`)
    const refused = await transfer(daily.apiKey, receiver.apiKey, await captcha())
    expect(refused.status).toBe(403)
    expect(refused.body.detail).toMatch(
      /^This API key's daily spending cap of 1,000 tokens leaves 1,000 tokens until \d{4}-\d{2}-\d{2}T00:00:00.000Z; a transfer moves the whole balance of 10,000 tokens/,
    )
    await unchanged(daily, receiver, [10_000, 0])

    // What it spent today counts: 900 of a 1,000 cap leave 100, less than the 200 left on the key.
    const spent = await keyWithBalance(database.db, 1100)
    await control(spent.id, sql`monthly_cap = 1000`)
    await consume(database.db, { keyId: spent.id, tokens: 900, usageEventId: randomUUID(), product: 'embeddings' })
    const over = await transfer(spent.apiKey, receiver.apiKey, await captcha())
    expect(over.status).toBe(403)
    expect(over.body.detail).toMatch(/monthly spending cap of 1,000 tokens leaves 100 tokens until/)
    await unchanged(spent, receiver, [200, 0])

    const within = await keyWithBalance(database.db, 500)
    await control(within.id, sql`daily_cap = 500, monthly_cap = 5000`)
    const moved = await transfer(within.apiKey, receiver.apiKey, await captcha())
    expect(moved).toMatchObject({ status: 200, body: { amount: 500, sender_revoked: true } })
    expect(await balanceOf(receiver.id)).toBe(500)
  })

  it('refuses an expired key, a key used from outside its ranges and a key scoped to some products', async () => {
    const receiver = await keyWithBalance(database.db, 0)
    const expired = await keyWithBalance(database.db, 300)
    await control(expired.id, sql`expires_at = now() - interval '1 hour'`)
    const late = await transfer(expired.apiKey, receiver.apiKey, await captcha())
    expect(late.status).toBe(401)
    expect(late.body.detail).toMatch(/^This API key expired at /)
    await unchanged(expired, receiver, [300, 0])

    const ranged = await keyWithBalance(database.db, 300)
    await control(ranged.id, sql`allowed_networks = '{10.0.0.0/8}'::text[]`)
    const outside = await call('POST', '/api/v1/billing/transfer_balance', {
      bearer: ranged.apiKey,
      query: { receiver_key: receiver.apiKey, revoke_sender_key: 'true' },
      form: { captcha: await captcha() },
      address: '203.0.113.9',
    })
    expect(outside.status).toBe(403)
    expect(outside.body.detail).toBe('This API key may not be used from 203.0.113.9; it is allowed from 10.0.0.0/8')
    await unchanged(ranged, receiver, [300, 0])

    const scoped = await keyWithBalance(database.db, 300)
    await control(scoped.id, sql`allowed_products = '{embeddings}'::text[]`)
    const narrow = await transfer(scoped.apiKey, receiver.apiKey, await captcha())
    expect(narrow.status).toBe(403)
    expect(narrow.body.detail).toMatch(/^This API key may be spent only on products: embeddings; a transfer/)
    await unchanged(scoped, receiver, [300, 0])

    // Inside its range the same key moves its balance.
    const inside = await call('POST', '/api/v1/billing/transfer_balance', {
      bearer: ranged.apiKey,
      query: { receiver_key: receiver.apiKey, revoke_sender_key: 'true' },
      form: { captcha: await captcha() },
      address: '10.1.2.3',
    })
    expect(inside).toMatchObject({ status: 200, body: { amount: 300 } })
  })

  it('judges the controls again under the lock: a key whose cap is set after the check is refused', async () => {
    const receiver = await keyWithBalance(database.db, 0)
    const sender = await keyWithBalance(database.db, 700)
    await control(sender.id, sql`daily_cap = 100`)
    expect(await outcomeOf(transferBalance(database.db, bySystem, sender.id, receiver.id))).toBe('TransferPastCap')
    await control(sender.id, sql`daily_cap = null, expires_at = now() - interval '1 second'`)
    expect(await outcomeOf(transferBalance(database.db, bySystem, sender.id, receiver.id))).toBe('KeyExpired')
    await unchanged(sender, receiver, [700, 0])
    expect(await auditLedger(database.db)).toEqual([])
  })
})
