import { sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { paymentProvider } from '~/server/api/payments/provider'
import { workRecharges } from '~/server/api/payments/recharge-worker'
import { getDb } from '~/server/db/client'
import { consume } from '~/server/domain/metering'
import { sandboxProvider } from '~/server/providers/payments/sandbox'
import { PaymentServiceFailed } from '~/server/domain/refusals'
import { call, keyWithBalance, scalar, apiDatabase } from '../support/api'
import { buyWithAutoRecharge, runRecharges, SANDBOX_SECRET } from '../support/payments'
import { describeWithService } from '../support/services'

const database = apiDatabase({ env: { PAYMENTS_SANDBOX_SECRET: SANDBOX_SECRET }, maxConnections: 20 })

const pack = 1_000_000_000
const balanceOf = (id: string) => scalar(database.db, sql`select balance from api_keys where id = ${id}::uuid`)
const attemptsOf = (id: string, status?: string) =>
  scalar(
    database.db,
    status
      ? sql`select count(*) from auto_recharge_attempts where key_id = ${id}::uuid and status = ${status}`
      : sql`select count(*) from auto_recharge_attempts where key_id = ${id}::uuid`,
  )
const chargesOf = (id: string) =>
  scalar(
    database.db,
    sql`select count(*) from sandbox_objects where kind = 'payment_intent' and data->'metadata'->>'key_id' = ${id} and data->'metadata'->>'kind' = 'auto_recharge'`,
  )
const mailsTo = (to: string) =>
  scalar(database.db, sql`select count(*) from email_outbox where kind = 'auto_recharge_failed' and "to" = ${to}`)
const autoRechargeOn = async (apiKey: string) =>
  (await call('GET', '/api/v1/api_key/fe_user', { query: { api_key: apiKey } })).body.metadata.auto_recharge
let usage = 0
const spend = (keyId: string, tokens: number) =>
  consume(database.db, { keyId, tokens, usageEventId: `spend-${usage++}-${keyId}`, product: 'embeddings' })

/** A key that bought a pack with auto-recharge at `threshold` (its card `card`), left `above` tokens over the threshold. */
async function rechargingKey(
  threshold: number,
  above: number,
  card: Parameters<typeof buyWithAutoRecharge>[2] = 'succeeds',
) {
  const key = await keyWithBalance(database.db, 0)
  await buyWithAutoRecharge(key.apiKey, threshold, card)
  await spend(key.id, (await balanceOf(key.id)) - threshold - above)
  expect(await balanceOf(key.id)).toBe(threshold + above)
  return key
}

describe('auto-recharge', () => {
  it('is refused before the key is paid with a saved card: the auto_recharge call sends it to a checkout instead', async () => {
    const key = await keyWithBalance(database.db, 100)
    const settings = await call('POST', '/api/v1/auto_recharge/settings', {
      bearer: key.apiKey,
      query: { threshold: '50' },
    })
    expect(settings.status).toBe(409)
    const { body } = await call('POST', '/api/v1/auto_recharge', {
      bearer: key.apiKey,
      json: {
        price_id: 'price_tokens_1b',
        success_url: 'http://localhost:3000/api-dashboard/auto-recharge',
        cancel_url: 'http://localhost:3000/api-dashboard/auto-recharge',
        email: 'a@example.com',
        metadata: { auto_recharge: true, threshold: 50, currency: 'EUR' },
      },
    })
    expect(body.detail[0].loc).toEqual(['body', 'metadata', 'currency'])
    expect(await autoRechargeOn(key.apiKey)).toBe(false)
  })

  it("charges once when a debit crosses the threshold and credits only from the payment's webhook", async () => {
    const key = await rechargingKey(500_000, 100)
    expect(await autoRechargeOn(key.apiKey)).toBe(true)
    await spend(key.id, 150)
    expect(await attemptsOf(key.id, 'pending')).toBe(1)
    expect(await balanceOf(key.id)).toBe(500_000 - 50)
    await runRecharges(database.db)
    expect(await chargesOf(key.id)).toBe(1)
    expect(await balanceOf(key.id)).toBe(500_000 - 50 + pack)
    expect(await attemptsOf(key.id, 'succeeded')).toBe(1)
    // Further spending above the threshold, and below it again: one more charge, not one per debit.
    await spend(key.id, pack)
    await spend(key.id, 10)
    await runRecharges(database.db)
    expect(await chargesOf(key.id)).toBe(2)
  })

  it('turns itself on and charges exactly once when the balance is already below the threshold (test 21)', async () => {
    const key = await keyWithBalance(database.db, 0)
    await buyWithAutoRecharge(key.apiKey, 3 * pack)
    expect(await attemptsOf(key.id, 'pending')).toBe(1)
    await runRecharges(database.db)
    await runRecharges(database.db)
    expect(await chargesOf(key.id)).toBe(1)
    expect(await balanceOf(key.id)).toBe(2 * pack)
  })

  it('opens no second attempt while one is pending, whatever raises the threshold (test 19)', async () => {
    const key = await rechargingKey(500_000, 100)
    await spend(key.id, 200)
    await spend(key.id, 200)
    await call('POST', '/api/v1/auto_recharge/settings', {
      bearer: key.apiKey,
      query: { threshold: '900000' },
    })
    expect(await attemptsOf(key.id)).toBe(1)
    await runRecharges(database.db)
    expect(await chargesOf(key.id)).toBe(1)
  })

  it('turns itself off, tells the owner and credits nothing when the card is declined or needs authentication (test 20)', async () => {
    for (const card of ['declinesLater', 'authenticate'] as const) {
      const key = await rechargingKey(500_000, 10, card)
      await spend(key.id, 20)
      const before = await balanceOf(key.id)
      await runRecharges(database.db)
      expect(await balanceOf(key.id)).toBe(before)
      expect(await autoRechargeOn(key.apiKey)).toBe(false)
      expect(await attemptsOf(key.id, 'failed')).toBe(1)
      expect(await mailsTo('buyer@example.com')).toBeGreaterThanOrEqual(1)
      const status = await call('GET', '/api/v1/auto_recharge', { bearer: key.apiKey })
      expect(status.body).toMatchObject({ enabled: false, eligible: true, last_attempt: { status: 'failed' } })
      expect(status.body.disabled_reason).toMatch(/declined|authenticate/)
    }
  })

  it('backs off while the payment service is unreachable, and gives up (turning itself off) after repeated failures', async () => {
    const key = await rechargingKey(500_000, 10)
    await spend(key.id, 20)
    const down = {
      ...paymentProvider(),
      chargeOffSession: async () => {
        throw new PaymentServiceFailed('unreachable')
      },
    }
    const ctx = { db: database.db, provider: down, caps: { perDay: 5, perMonth: 30 }, leaseSeconds: 120 }
    expect(await workRecharges(ctx)).toBe(1)
    const next = await scalar(
      database.db,
      sql`select extract(epoch from next_try_at - now()) from auto_recharge_attempts where key_id = ${key.id}::uuid`,
    )
    expect(next).toBeGreaterThan(20)
    expect(await workRecharges(ctx)).toBe(0) // not due yet
    for (let tries = 0; tries < 10; tries++) {
      await database.db.execute(
        sql`update auto_recharge_attempts set next_try_at = now() where key_id = ${key.id}::uuid and status = 'charging'`,
      )
      await workRecharges(ctx)
    }
    expect(await attemptsOf(key.id, 'failed')).toBe(1)
    expect(await autoRechargeOn(key.apiKey)).toBe(false)
    expect(await chargesOf(key.id)).toBe(0)
  })

  it('stops at the daily cap, checked when the attempt is charged', async () => {
    const key = await rechargingKey(500_000, 10)
    await spend(key.id, 20)
    await runRecharges(database.db, { perDay: 1, perMonth: 30 })
    await spend(key.id, (await balanceOf(key.id)) - 499_990)
    await runRecharges(database.db, { perDay: 1, perMonth: 30 })
    expect(await chargesOf(key.id)).toBe(1)
    expect(await autoRechargeOn(key.apiKey)).toBe(false)
    expect(
      await scalar(
        database.db,
        sql`select count(*) from auto_recharge_attempts where key_id = ${key.id}::uuid and failure like '%daily limit%'`,
      ),
    ).toBe(1)
  })

  it('retries a stuck charge with the same idempotency key, and settles one whose webhook never came: one payment, one credit', async () => {
    const key = await rechargingKey(500_000, 10)
    await spend(key.id, 20)
    const before = await balanceOf(key.id)
    // The charge goes out but its webhook is lost (the sandbox's delivery dropped, as an endpoint that was down).
    const lost = sandboxProvider({
      secret: SANDBOX_SECRET,
      baseUrl: 'http://localhost:3000',
      db: getDb,
      deliver: async () => undefined,
    })
    const ctx = { db: database.db, provider: lost.provider, caps: { perDay: 5, perMonth: 30 }, leaseSeconds: 120 }
    await workRecharges(ctx)
    await lost.idle()
    expect(await balanceOf(key.id)).toBe(before)
    // Looked at again later: the same attempt charges again with the same key, which is the same payment.
    await database.db.execute(sql`update auto_recharge_attempts set next_try_at = now() where key_id = ${key.id}::uuid`)
    await workRecharges(ctx)
    expect(await chargesOf(key.id)).toBe(1)
    expect(await balanceOf(key.id)).toBe(before)
    // Still no webhook after many tries: the service's record of the payment settles it.
    await database.db.execute(
      sql`update auto_recharge_attempts set next_try_at = now(), tries = 9 where key_id = ${key.id}::uuid`,
    )
    await runRecharges(database.db)
    expect(await chargesOf(key.id)).toBe(1)
    expect(await balanceOf(key.id)).toBe(before + pack)
    expect(await attemptsOf(key.id, 'succeeded')).toBe(1)
  })
})

describeWithService('TEST_DATABASE_URL', 'auto-recharge under concurrent debits', () => {
  it('starts exactly one attempt and one payment when 100 concurrent debits cross the threshold (test 18)', async () => {
    const key = await rechargingKey(1_000_000, 50)
    await Promise.all(Array.from({ length: 100 }, () => spend(key.id, 10)))
    expect(await balanceOf(key.id)).toBe(1_000_000 + 50 - 1000)
    expect(await attemptsOf(key.id)).toBe(1)
    await Promise.all([runRecharges(database.db), runRecharges(database.db)])
    expect(await chargesOf(key.id)).toBe(1)
    expect(await balanceOf(key.id)).toBe(1_000_000 + 50 - 1000 + pack)
  })
})
