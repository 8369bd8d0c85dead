import { sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { paymentProvider } from '~/server/api/payments/provider'
import { dueForCheck, reconcilePayments } from '~/server/api/payments/reconcile'
import { auditLedger } from '~/server/domain/ledger'
import { sandboxProvider } from '~/server/providers/payments/sandbox'
import { apiDatabase, BASE, call, keyWithBalance, scalar } from '../support/api'
import { card, purchaseCredits, SANDBOX_SECRET, startCheckout } from '../support/payments'
import { describeWithService } from '../support/services'

const database = apiDatabase({ env: { PAYMENTS_SANDBOX_SECRET: SANDBOX_SECRET }, maxConnections: 30 })

/**
 * The sandbox of an instance killed right after a payment: it completes the session on the shared database
 * (as the sandbox does, in one transaction), and the events it would send after the commit go nowhere.
 */
const crashedInstance = () =>
  sandboxProvider({
    secret: SANDBOX_SECRET,
    baseUrl: BASE,
    db: async () => database.db,
    deliver: async () => undefined,
  })

const balanceOf = (id: string) => scalar(database.db, sql`select balance from api_keys where id = ${id}::uuid`)
/** As if `seconds` had passed since the checkout began: the reconciler leaves the webhook its turn first. */
const age = (table: 'purchases' | 'card_setups', session: string, seconds: number) =>
  database.db.execute(
    sql`update ${sql.raw(table)} set created_at = now() - make_interval(secs => ${seconds}) where checkout_session_id = ${session}`,
  )
const reconcile = () => reconcilePayments(database.db, paymentProvider())

describe('a sandbox payment whose events were lost in a crash', () => {
  it('is credited by the reconciler once it is past the webhook’s turn, once, however often it runs', async () => {
    const key = await keyWithBalance(database.db, 5)
    const session = await startCheckout(key.apiKey)
    expect(await crashedInstance().pay(session, card('succeeds'))).toMatchObject({ kind: 'paid' })
    // The process died before its events went out: nothing credited, the purchase pending.
    expect(await balanceOf(key.id)).toBe(5)
    expect(
      await scalar(
        database.db,
        sql`select count(*) from purchases where checkout_session_id = ${session} and status = 'pending'`,
      ),
    ).toBe(1)

    expect(await reconcile()).toEqual({ credited: 0, saved: 0 }) // a minute old: the webhook's turn
    await age('purchases', session, 130)
    expect(await reconcile()).toEqual({ credited: 1, saved: 0 })
    expect(await reconcile()).toEqual({ credited: 0, saved: 0 })

    expect(await balanceOf(key.id)).toBe(5 + 1_000_000_000)
    expect(await purchaseCredits(database.db, key.id)).toBe(2) // keyWithBalance's own entry and this one
    const { body } = await call('GET', '/api/v1/billing/purchases', { bearer: key.apiKey })
    expect(body.purchases[0]).toMatchObject({ status: 'paid', card: { last4: '4242' } })
    expect(body.purchases[0].payment_id).toMatch(/^pi_/)
    expect(body.purchases[0].invoice_number).toMatch(/^INV-\d{6}$/)
    expect(await auditLedger(database.db)).toEqual([])
  })

  it('saves a card set up before a crash and turns auto-recharge on, once', async () => {
    const key = await keyWithBalance(database.db, 600_000_000)
    const { status, body } = await call('POST', '/api/v1/auto_recharge', {
      bearer: key.apiKey,
      json: {
        price_id: 'price_tokens_1b',
        save_card_only: true,
        success_url: `${BASE}/api-dashboard/auto-recharge`,
        cancel_url: `${BASE}/api-dashboard/auto-recharge`,
        metadata: { auto_recharge: true, threshold: 500_000_000, currency: 'USD' },
      },
    })
    expect(status).toBe(200)
    const session = new URL(body.url).pathname.split('/').pop()!
    expect(await crashedInstance().pay(session, card('succeeds'))).toMatchObject({ kind: 'paid' })
    await age('card_setups', session, 130)
    expect(await reconcile()).toEqual({ credited: 0, saved: 1 })
    expect(await reconcile()).toEqual({ credited: 0, saved: 0 })
    const settings = (await call('GET', '/api/v1/auto_recharge', { bearer: key.apiKey })).body
    expect(settings).toMatchObject({ enabled: true, threshold: 500_000_000, card: { last4: '4242' } })
  })
})

describe('when the reconciler asks', () => {
  it('asks about a checkout at 2, 4, 8… minutes, each within two passes, not every minute', () => {
    const minute = 60_000
    const asked = Array.from({ length: 24 * 60 }, (_, i) => i * minute).filter((age) => dueForCheck(age))
    expect(asked.slice(0, 6).map((age) => age / minute)).toEqual([2, 3, 4, 5, 8, 9])
    expect(asked.length).toBeLessThan(25)
  })
})

describeWithService('TEST_DATABASE_URL', 'the reconciler on real Postgres', () => {
  it('credits once when several instances reconcile at the same moment', async () => {
    const key = await keyWithBalance(database.db, 5)
    const sessions = [await startCheckout(key.apiKey), await startCheckout(key.apiKey)]
    for (const session of sessions) {
      await crashedInstance().pay(session, card('succeeds'))
      await age('purchases', session, 130)
    }
    const passes = await Promise.all(Array.from({ length: 6 }, () => reconcile()))
    expect(passes.reduce((sum, pass) => sum + pass.credited, 0)).toBe(2)
    expect(await balanceOf(key.id)).toBe(5 + 2 * 1_000_000_000)
    expect(await purchaseCredits(database.db, key.id)).toBe(3)
    expect(await auditLedger(database.db)).toEqual([])
  })
})
