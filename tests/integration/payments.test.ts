import { sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { confirmCheckoutFor } from '~/server/api/payments/purchases'
import { sandboxPayFor } from '~/server/api/payments/sandbox-checkout'
import { openDatabase, useDatabase } from '~/server/db/client'
import { callerOf } from '~/server/http/caller-of'
import { writeObject } from '~/server/providers/payments/sandbox/store'
import { apiDatabase, call, fingerprint, keyWithBalance, scalar } from '../support/api'
import { describeWithService } from '../support/services'
import {
  buyPack,
  card,
  postWebhook,
  purchaseCredits,
  sandbox,
  signedEvent,
  signedPayload,
  startCheckout,
  SANDBOX_SECRET,
} from '../support/payments'

const database = apiDatabase({ env: { PAYMENTS_SANDBOX_SECRET: SANDBOX_SECRET }, maxConnections: 30 })

const balanceOf = (id: string) => scalar(database.db, sql`select balance from api_keys where id = ${id}::uuid`)
const keyInfo = async (apiKey: string) =>
  (await call('GET', '/api/v1/api_key/fe_user', { query: { api_key: apiKey } })).body
const sessionObject = async (id: string) =>
  (await database.db.execute(sql`select data from sandbox_objects where id = ${id}`)) as unknown
const storedSession = async (id: string) => {
  const rows = ((await sessionObject(id)) as { rows?: Array<{ data: Record<string, unknown> }> }).rows
  return (rows ?? ((await sessionObject(id)) as unknown as Array<{ data: Record<string, unknown> }>))[0].data
}
/** A checkout the sandbox holds as paid, its webhook not yet delivered. */
async function paidSession(apiKey: string) {
  const session = await startCheckout(apiKey)
  await writeObject(database.db, {
    ...(await storedSession(session)),
    status: 'complete',
    payment_status: 'paid',
  } as never)
  return session
}
const keyCaller = (apiKey: string) => callerOf(new Request('http://localhost:3000/'), apiKey)

describe('buying a pack', () => {
  it("credits the pack once, makes the key paid with the buyer's e-mail, and premium for the 11B pack", async () => {
    const key = await keyWithBalance(database.db, 5)
    expect((await keyInfo(key.apiKey)).email).toBeNull()
    const { paid } = await buyPack(key.apiKey, 'price_tokens_11b')
    expect(paid).toMatchObject({ kind: 'paid' })
    expect(await balanceOf(key.id)).toBe(5 + 11_000_000_000)
    // The sandbox sends payment_intent.succeeded as well, as Stripe does: it must not credit again.
    expect(await purchaseCredits(database.db, key.id)).toBe(2) // the setup's own purchase entry and this one
    const info = await keyInfo(key.apiKey)
    expect(info.email).toBe('buyer@example.com')
    expect(info.metadata.speed_level).toBe(2)
  })

  it('refuses a price that is not on offer and a return page of another site, writing nothing', async () => {
    const key = await keyWithBalance(database.db, 5)
    const before = await fingerprint(database.db)
    for (const json of [
      { price_id: 'price_tokens_100m_legacy' },
      { price_id: 'price_tokens_1b', success_url: 'https://evil.example/steal' },
      { price_id: 'price_tokens_1b', tokens: 5 },
    ]) {
      const answer = await call('POST', '/api/v1/checkout_session', { bearer: key.apiKey, json })
      expect(answer.status).toBe(422)
    }
    expect(await fingerprint(database.db)).toEqual(before)
  })

  it("judges return pages against PUBLIC_BASE_URL alone, never the request's Host (checkout, auto-recharge, card setup)", async () => {
    const key = await keyWithBalance(database.db, 5)
    const evil = 'http://evil.example'
    const purchasesBefore = await scalar(database.db, sql`select count(*) from purchases`)
    const setupsBefore = await scalar(database.db, sql`select count(*) from card_setups`)
    const bodies: Array<[string, Record<string, unknown>]> = [
      ['/api/v1/checkout_session', { price_id: 'price_tokens_1b', success_url: `${evil}/thanks` }],
      ['/api/v1/checkout_session', { price_id: 'price_tokens_1b', cancel_url: `${evil}/back` }],
      ...[false, true].map(
        (saveCardOnly) =>
          [
            '/api/v1/auto_recharge',
            {
              price_id: 'price_tokens_1b',
              success_url: `${evil}/thanks`,
              cancel_url: 'http://localhost:3000/api-dashboard/auto-recharge',
              save_card_only: saveCardOnly,
              metadata: { auto_recharge: true, threshold: 1000, currency: 'USD' },
            },
          ] as [string, Record<string, unknown>],
      ),
    ]
    for (const [path, json] of bodies) {
      // A REST client sets Host as it likes; behind no proxy the request's URL is built from it.
      const answer = await call('POST', `${evil}${path}`, {
        bearer: key.apiKey,
        headers: { host: 'evil.example' },
        json,
      })
      expect(answer.status, `${path} ${JSON.stringify(json)}`).toBe(422)
      expect(JSON.stringify(answer.body.detail)).toContain('must be a page of http://localhost:3000')
    }
    expect(await scalar(database.db, sql`select count(*) from purchases`)).toBe(purchasesBefore)
    expect(await scalar(database.db, sql`select count(*) from card_setups`)).toBe(setupsBefore)
    // The same request with this site's own pages is a checkout whose pages are this site's.
    const own = await call('POST', `${evil}/api/v1/checkout_session`, {
      bearer: key.apiKey,
      headers: { host: 'evil.example' },
      json: { price_id: 'price_tokens_1b' },
    })
    expect(own.status).toBe(200)
    expect(new URL(own.body.url).origin).toBe('http://localhost:3000')
    const session = await storedSession(own.body.id)
    expect([new URL(String(session.success_url)).origin, new URL(String(session.cancel_url)).origin]).toEqual([
      'http://localhost:3000',
      'http://localhost:3000',
    ])
  })

  it('credits nothing for a declined card, and nothing until a 3-D Secure step is approved', async () => {
    const key = await keyWithBalance(database.db, 5)
    const session = await startCheckout(key.apiKey)
    expect(await sandbox().pay(session, { ...card('declined'), number: '4000 0000 0000 0002' })).toEqual({
      kind: 'declined',
    })
    expect(await sandbox().pay(session, { ...card('authenticate'), number: '4000 0025 0000 3155' })).toEqual({
      kind: 'authenticate',
    })
    expect(await balanceOf(key.id)).toBe(5)
    expect(await sandbox().authenticate(session, false)).toEqual({ kind: 'declined' })
    expect(await balanceOf(key.id)).toBe(5)
    expect(await sandbox().pay(session, { ...card('authenticate'), number: '4000 0025 0000 3155' })).toEqual({
      kind: 'authenticate',
    })
    expect(await sandbox().authenticate(session, true)).toMatchObject({ kind: 'paid' })
    expect(await balanceOf(key.id)).toBe(5 + 1_000_000_000)
  })
})

describe('webhook signatures (test 11)', () => {
  it('refuses a missing, wrong or stale signature with 400 and changes nothing', async () => {
    const key = await keyWithBalance(database.db, 5)
    const session = await paidSession(key.apiKey)
    const before = await fingerprint(database.db)
    const good = signedEvent('checkout.session.completed', { id: session })
    const forged = signedEvent('checkout.session.completed', { id: session }, { secret: 'whsec_wrong' })
    const stale = signedEvent(
      'checkout.session.completed',
      { id: session },
      { timestamp: Math.floor(Date.now() / 1000) - 600 },
    )
    for (const [payload, signature] of [
      [good.payload, undefined],
      [good.payload, forged.signature],
      [stale.payload, stale.signature],
      [good.payload.replace('checkout.session.completed', 'checkout.session.expired'), good.signature],
    ] as const) {
      const answer = await postWebhook(payload, signature)
      expect(answer.status).toBe(400)
      expect(answer.body.detail).toBe('Invalid payment event signature')
    }
    expect(await fingerprint(database.db)).toEqual(before)
    expect((await postWebhook(good.payload, good.signature)).status).toBe(200)
    expect(await balanceOf(key.id)).toBe(5 + 1_000_000_000)
  })
})

describe('signed events dated ahead, or of the wrong shape', () => {
  it('refuses a signature dated beyond a minute ahead with 400 and changes nothing; a few seconds ahead passes', async () => {
    const key = await keyWithBalance(database.db, 5)
    const session = await paidSession(key.apiKey)
    const now = Math.floor(Date.now() / 1000)
    const before = await fingerprint(database.db)
    for (const ahead of [600, 120]) {
      const future = signedEvent('checkout.session.completed', { id: session }, { timestamp: now + ahead })
      const answer = await postWebhook(future.payload, future.signature)
      expect(answer).toMatchObject({ status: 400, body: { detail: 'Invalid payment event signature' } })
    }
    expect(await fingerprint(database.db)).toEqual(before)
    expect(await balanceOf(key.id)).toBe(5)
    const skewed = signedEvent('checkout.session.completed', { id: session }, { timestamp: now + 20 })
    expect((await postWebhook(skewed.payload, skewed.signature)).status).toBe(200)
    expect(await balanceOf(key.id)).toBe(5 + 1_000_000_000)
  })

  it('answers 400 to a validly signed event with a null object, no id, or a NUL in its id, and records each as failed, never pending', async () => {
    const pendingEvents = () =>
      scalar(database.db, sql`select count(*) from payment_events where processed_at is null and failed_at is null`)
    const failedEvents = () =>
      scalar(database.db, sql`select count(*) from payment_events where failed_at is not null and processed_at is null`)
    const pendingBefore = await pendingEvents()
    const failedBefore = await failedEvents()
    const id = () => `evt_test_${crypto.randomUUID().replace(/-/g, '')}`
    const shapes: Array<[string, unknown]> = [
      ['data.object', { id: id(), object: 'event', type: 'checkout.session.completed', data: { object: null } }],
      ['id', { object: 'event', type: 'charge.refunded', data: { object: { id: 'ch_1', payment_intent: 'pi_1' } } }],
      ['id', { id: `${id()}\u0000x`, object: 'event', type: 'checkout.session.completed', data: { object: {} } }],
      ['id', { id: 42, object: 'event', type: 'checkout.session.completed', data: { object: {} } }],
      ['data', { id: id(), object: 'event', type: 'payment_intent.succeeded' }],
      ['data.object', { id: id(), object: 'event', type: 'charge.refunded', data: { object: ['ch_1'] } }],
      ['stored', { id: id(), object: 'event', type: 'charge.refunded', data: { object: { id: 'ch_\u0000' } } }],
    ]
    for (const [where, event] of shapes) {
      const { payload, signature } = signedPayload(JSON.stringify(event))
      const answer = await postWebhook(payload, signature)
      expect(answer.status, payload).toBe(400)
      expect(answer.body.detail, payload).toMatch(/^Malformed payment event: /)
      expect(answer.body.detail, payload).toContain(where)
    }
    const notJson = signedPayload('{"id": "evt_test_cut", "type": "charge.refun')
    expect((await postWebhook(notJson.payload, notJson.signature)).body.detail).toBe(
      'Malformed payment event: the body is not JSON',
    )
    expect(await pendingEvents()).toBe(pendingBefore)
    expect(await failedEvents()).toBe(failedBefore + shapes.length + 1)
  })
})

describe('exactly once (tests 12, 13, 15)', () => {
  it('credits one purchase once for the same event twice and for two events of one session', async () => {
    const key = await keyWithBalance(database.db, 5)
    const session = await paidSession(key.apiKey)
    const completed = signedEvent('checkout.session.completed', { id: session })
    expect((await postWebhook(completed.payload, completed.signature)).status).toBe(200)
    expect((await postWebhook(completed.payload, completed.signature)).status).toBe(200)
    const async = signedEvent('checkout.session.async_payment_succeeded', { id: session })
    expect((await postWebhook(async.payload, async.signature)).status).toBe(200)
    expect(await balanceOf(key.id)).toBe(5 + 1_000_000_000)
  })

  it('credits once when the buyer returns to the success page and the webhook arrives, in either order', async () => {
    for (const returnFirst of [true, false]) {
      const key = await keyWithBalance(database.db, 5)
      const session = await paidSession(key.apiKey)
      const event = signedEvent('checkout.session.completed', { id: session })
      if (!returnFirst) await postWebhook(event.payload, event.signature)
      expect(await confirmCheckoutFor(keyCaller(key.apiKey), session)).toEqual({
        status: 'paid',
        tokens: 1_000_000_000,
        balance: 1_000_000_005,
      })
      if (returnFirst) await postWebhook(event.payload, event.signature)
      expect(await balanceOf(key.id)).toBe(5 + 1_000_000_000)
    }
  })

  it("follows the purchase and the service's line items, never an event's claims (tampered metadata)", async () => {
    const buyer = await keyWithBalance(database.db, 5)
    const other = await keyWithBalance(database.db, 5)
    const session = await paidSession(buyer.apiKey)
    const tampered = signedEvent('checkout.session.completed', {
      id: session,
      client_reference_id: other.id,
      metadata: { key_id: other.id, price_id: 'price_tokens_11b' },
      amount_total: 50000,
    })
    await postWebhook(tampered.payload, tampered.signature)
    expect(await balanceOf(buyer.id)).toBe(5 + 1_000_000_000)
    expect(await balanceOf(other.id)).toBe(5)

    // The service's own record disagrees with the purchase (another price, another currency): no credit.
    for (const change of [
      { line_items: { data: [{ price: { id: 'x', lookup_key: 'price_tokens_100m_legacy' }, quantity: 1 }] } },
      { currency: 'eur' },
      { amount_total: 1 },
    ]) {
      const key = await keyWithBalance(database.db, 5)
      const odd = await paidSession(key.apiKey)
      await writeObject(database.db, { ...(await storedSession(odd)), ...change } as never)
      const event = signedEvent('checkout.session.completed', { id: odd })
      expect((await postWebhook(event.payload, event.signature)).status).toBe(200)
      expect(await balanceOf(key.id)).toBe(5)
    }
  })
})

describe('asynchronous payments (test 14)', () => {
  it('credits nothing while unpaid, credits on async_payment_succeeded, and nothing for a failed one', async () => {
    const key = await keyWithBalance(database.db, 5)
    const session = await startCheckout(key.apiKey)
    await writeObject(database.db, {
      ...(await storedSession(session)),
      status: 'complete',
      payment_status: 'unpaid',
    } as never)
    const completed = signedEvent('checkout.session.completed', { id: session })
    await postWebhook(completed.payload, completed.signature)
    expect(await balanceOf(key.id)).toBe(5)
    expect(await confirmCheckoutFor(keyCaller(key.apiKey), session)).toMatchObject({ status: 'pending' })
    await writeObject(database.db, { ...(await storedSession(session)), payment_status: 'paid' } as never)
    const succeeded = signedEvent('checkout.session.async_payment_succeeded', { id: session })
    await postWebhook(succeeded.payload, succeeded.signature)
    expect(await balanceOf(key.id)).toBe(5 + 1_000_000_000)

    const failing = await startCheckout(key.apiKey)
    await writeObject(database.db, {
      ...(await storedSession(failing)),
      status: 'complete',
      payment_status: 'unpaid',
    } as never)
    const failed = signedEvent('checkout.session.async_payment_failed', { id: failing })
    await postWebhook(failed.payload, failed.signature)
    expect(await balanceOf(key.id)).toBe(5 + 1_000_000_000)
    expect(
      await scalar(
        database.db,
        sql`select count(*) from purchases where checkout_session_id = ${failing} and status = 'failed'`,
      ),
    ).toBe(1)
  })
})

describe('refunds and disputes (test 16)', () => {
  const paymentIntentOf = (keyId: string) =>
    database.db.execute(
      sql`select payment_intent_id as id from purchases where key_id = ${keyId}::uuid and status = 'paid'`,
    )

  it('takes back what is still there once, records the spent rest as owed, never below zero, and settles it from the next purchase', async () => {
    const key = await keyWithBalance(database.db, 0)
    await buyPack(key.apiKey)
    const rows = (await paymentIntentOf(key.id)) as unknown as { rows?: Array<{ id: string }> } & Array<{ id: string }>
    const intent = (rows.rows ?? rows)[0].id
    // The holder spends 600M of the 1B before the refund.
    await database.db.execute(
      sql`select * from ledger_apply_v2(${JSON.stringify([{ key_id: key.id, amount: -600_000_000, type: 'consume', external_ref: `usage:spend-${key.id}` }])}::jsonb, '{}'::jsonb)`,
    )
    const refund = signedEvent('charge.refunded', {
      id: `ch_${key.id}`,
      payment_intent: intent,
      amount: 5000,
      amount_refunded: 5000,
    })
    await postWebhook(refund.payload, refund.signature)
    await postWebhook(refund.payload, refund.signature)
    expect(await balanceOf(key.id)).toBe(0)
    expect(
      await scalar(
        database.db,
        sql`select coalesce(sum(tokens), 0) from billing_debts where key_id = ${key.id}::uuid and settled_at is null`,
      ),
    ).toBe(600_000_000)
    expect(
      await scalar(
        database.db,
        sql`select count(*) from ledger_entries where key_id = ${key.id}::uuid and type = 'refund'`,
      ),
    ).toBe(1)

    await buyPack(key.apiKey)
    expect(await balanceOf(key.id)).toBe(1_000_000_000 - 600_000_000)
    expect(
      await scalar(
        database.db,
        sql`select count(*) from billing_debts where key_id = ${key.id}::uuid and settled_at is null`,
      ),
    ).toBe(0)
  })

  it('takes a partial refund, then the rest, and a dispute takes nothing already taken back', async () => {
    const key = await keyWithBalance(database.db, 0)
    await buyPack(key.apiKey)
    const rows = (await paymentIntentOf(key.id)) as unknown as { rows?: Array<{ id: string }> } & Array<{ id: string }>
    const intent = (rows.rows ?? rows)[0].id
    const half = signedEvent('charge.refunded', {
      id: 'ch_partial',
      payment_intent: intent,
      amount: 5000,
      amount_refunded: 2500,
    })
    await postWebhook(half.payload, half.signature)
    expect(await balanceOf(key.id)).toBe(500_000_000)
    const dispute = signedEvent('charge.dispute.created', { id: 'dp_1', payment_intent: intent, amount: 5000 })
    await postWebhook(dispute.payload, dispute.signature)
    expect(await balanceOf(key.id)).toBe(0)
    const all = signedEvent('charge.refunded', {
      id: 'ch_partial',
      payment_intent: intent,
      amount: 5000,
      amount_refunded: 5000,
    })
    await postWebhook(all.payload, all.signature)
    expect(await balanceOf(key.id)).toBe(0)
    expect(
      await scalar(database.db, sql`select coalesce(sum(tokens), 0) from billing_debts where key_id = ${key.id}::uuid`),
    ).toBe(0)
  })
})

describe('a database that is down during a webhook (test 17)', () => {
  it('answers 503 so the service retries, and the retry credits once', async () => {
    const key = await keyWithBalance(database.db, 5)
    const session = await paidSession(key.apiKey)
    const event = signedEvent('checkout.session.completed', { id: session })
    const down = await openDatabase({ url: 'postgres://postgres@127.0.0.1:1/unreachable', maxConnections: 1 })
    useDatabase(down)
    try {
      const answer = await postWebhook(event.payload, event.signature)
      expect(answer.status).toBe(503)
    } finally {
      useDatabase(database)
      await down.close()
    }
    expect(await balanceOf(key.id)).toBe(5)
    expect((await postWebhook(event.payload, event.signature)).status).toBe(200)
    expect((await postWebhook(event.payload, event.signature)).status).toBe(200)
    expect(await balanceOf(key.id)).toBe(5 + 1_000_000_000)
  })
})

describeWithService('TEST_DATABASE_URL', 'concurrent deliveries on real Postgres (test 12)', () => {
  it("credits once for 20 concurrent deliveries of one event, and for the same session's other events among them", async () => {
    const key = await keyWithBalance(database.db, 5)
    const session = await paidSession(key.apiKey)
    const completed = signedEvent('checkout.session.completed', { id: session })
    const other = signedEvent('checkout.session.async_payment_succeeded', { id: session })
    const answers = await Promise.all([
      ...Array.from({ length: 20 }, () => postWebhook(completed.payload, completed.signature)),
      ...Array.from({ length: 5 }, () => postWebhook(other.payload, other.signature)),
    ])
    expect(answers.map((answer) => answer.status)).toEqual(Array(25).fill(200))
    expect(await balanceOf(key.id)).toBe(5 + 1_000_000_000)
    expect(await purchaseCredits(database.db, key.id)).toBe(2)
  })
})

describeWithService('TEST_DATABASE_URL', 'concurrent submits of one sandbox checkout on real Postgres', () => {
  it('takes one payment for 12 concurrent submits of one session and tells the others it is already paid', async () => {
    const key = await keyWithBalance(database.db, 5)
    const session = await startCheckout(key.apiKey)
    const outcomes = await Promise.all(Array.from({ length: 12 }, () => sandboxPayFor(session, card('succeeds'))))
    await sandbox().idle()
    const kinds = outcomes.map((outcome) => outcome.kind)
    expect(kinds.filter((kind) => kind === 'paid')).toHaveLength(1)
    expect(kinds.filter((kind) => kind === 'already_paid')).toHaveLength(11)
    for (const outcome of outcomes) expect(outcome).toMatchObject({ redirect: expect.stringContaining(session) })
    const payments = await scalar(
      database.db,
      sql`select count(*) from sandbox_objects where kind = 'payment_intent'
          and data->>'status' = 'succeeded' and data->'metadata'->>'purchase_id' = (
            select id::text from purchases where checkout_session_id = ${session})`,
    )
    expect(payments).toBe(1)
    expect(await balanceOf(key.id)).toBe(5 + 1_000_000_000)
    expect(await purchaseCredits(database.db, key.id)).toBe(2)
  })
})
