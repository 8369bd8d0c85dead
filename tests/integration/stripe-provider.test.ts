import { sql } from 'drizzle-orm'
import { afterAll, describe, expect, it } from 'vitest'
import { paymentProvider } from '~/server/api/payments/provider'
import { workRecharges } from '~/server/api/payments/recharge-worker'
import { consume } from '~/server/domain/metering'
import { call, keyWithBalance, scalar, apiDatabase } from '../support/api'
import { startFakeStripe } from '../support/fake-stripe'
import { postWebhook, signedPayload } from '../support/payments'

const WEBHOOK_SECRET = 'whsec_fake_endpoint_secret'
let stripe: Awaited<ReturnType<typeof startFakeStripe>>
const database = apiDatabase({
  env: async () => {
    stripe = await startFakeStripe(WEBHOOK_SECRET)
    return { STRIPE_SECRET_KEY: 'sk_test_fake', STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_API_URL: stripe.url }
  },
})
afterAll(() => stripe?.close())

const balanceOf = (id: string) => scalar(database.db, sql`select balance from api_keys where id = ${id}::uuid`)
const post = (payload: { payload: string; signature: string }) => postWebhook(payload.payload, payload.signature)

describe("the stripe provider against Stripe's API", () => {
  it("creates a payment-mode checkout for the pack's price and credits it once from the signed events", async () => {
    expect(paymentProvider().kind).toBe('stripe')
    const key = await keyWithBalance(database.db, 0)
    const { status, body } = await call('POST', '/api/v1/checkout_session', {
      bearer: key.apiKey,
      json: { price_id: 'price_tokens_1b' },
    })
    expect(status).toBe(200)
    expect(body.url).toMatch(/^https:\/\/checkout\.stripe\.example\//)
    const created = stripe.requests.find((r) => r.method === 'POST' && r.path === '/v1/checkout/sessions')!
    expect(created.auth).toBe('Bearer sk_test_fake')
    expect(created.form).toMatchObject({
      mode: 'payment',
      'line_items[0][price]': 'price_1Fake1b',
      'line_items[0][quantity]': '1',
      client_reference_id: key.id,
      customer_creation: 'always',
    })
    expect(created.form.success_url).toContain('{CHECKOUT_SESSION_ID}')
    // Every checkout keeps its card, so auto-recharge can later use it without a second purchase.
    expect(created.form['payment_intent_data[setup_future_usage]']).toBe('off_session')

    const events = stripe.paySession(body.id, { email: 'payer@example.com' })
    expect((await post(events.completed)).status).toBe(200)
    expect((await post(events.succeeded)).status).toBe(200)
    expect((await post(events.completed)).status).toBe(200)
    expect(await balanceOf(key.id)).toBe(1_000_000_000)
    expect(
      await scalar(
        database.db,
        sql`select count(*) from api_keys where id = ${key.id}::uuid and email = 'payer@example.com'`,
      ),
    ).toBe(1)
    const receipt = await scalar(
      database.db,
      sql`select count(*) from purchases where key_id = ${key.id}::uuid and receipt_url like 'https://pay.stripe.example/receipts/%'`,
    )
    expect(receipt).toBe(1)
    // The receipt names the card Stripe charged.
    expect(
      await scalar(
        database.db,
        sql`select count(*) from purchases where key_id = ${key.id}::uuid and card_brand = 'visa' and card_last4 = '4242'`,
      ),
    ).toBe(1)
  })

  it('saves a card in a setup-mode checkout without charging, once, and auto-recharge charges it later', async () => {
    const key = await keyWithBalance(database.db, 0)
    const { status, body } = await call('POST', '/api/v1/auto_recharge', {
      bearer: key.apiKey,
      json: {
        price_id: 'price_tokens_1b',
        success_url: 'http://localhost:3000/api-dashboard/auto-recharge?checkout=success&session={CHECKOUT_SESSION_ID}',
        cancel_url: 'http://localhost:3000/api-dashboard/auto-recharge',
        email: 'saver@example.com',
        save_card_only: true,
        metadata: { auto_recharge: true, threshold: 500_000_000, currency: 'USD' },
      },
    })
    expect(status).toBe(200)
    expect(body.url).toMatch(/^https:\/\/checkout\.stripe\.example\/c\/setup\//)
    const created = stripe.requests.filter((r) => r.method === 'POST' && r.path === '/v1/checkout/sessions').at(-1)!
    expect(created.form).toMatchObject({
      mode: 'setup',
      currency: 'usd',
      client_reference_id: key.id,
      customer_creation: 'always',
      customer_email: 'saver@example.com',
      'setup_intent_data[metadata][kind]': 'card_setup',
    })
    expect(created.form['line_items[0][price]']).toBeUndefined()
    const session = [...stripe.sessions.values()].find((s) => s.url === body.url)!
    const events = stripe.completeSetup(session.id as string)
    // Both events, each delivered twice: the card is saved once and nothing is credited or charged.
    for (const event of [events.succeeded, events.completed, events.succeeded, events.completed])
      expect((await post(event)).status).toBe(200)
    expect(await balanceOf(key.id)).toBe(0)
    expect(await scalar(database.db, sql`select count(*) from purchases where key_id = ${key.id}::uuid`)).toBe(0)
    expect(
      await scalar(
        database.db,
        sql`select count(*) from billing_profiles where key_id = ${key.id}::uuid
          and payment_method_id = 'pm_card_visa' and card_last4 = '4242' and recharge_price_id = 'price_tokens_1b'`,
      ),
    ).toBe(1)
    expect(
      await scalar(
        database.db,
        sql`select count(*) from audit_log where key_id = ${key.id}::uuid and action = 'card.saved'`,
      ),
    ).toBe(1)
    const { body: settings } = await call('GET', '/api/v1/auto_recharge', { bearer: key.apiKey })
    expect(settings).toMatchObject({ enabled: true, threshold: 500_000_000, eligible: true, card: { last4: '4242' } })

    // Below the threshold already (a balance of 0): the worker charges the saved card for the pack.
    await workRecharges({
      db: database.db,
      provider: paymentProvider(),
      caps: { perDay: 5, perMonth: 30 },
      leaseSeconds: 120,
    })
    const charge = stripe.requests.filter((r) => r.method === 'POST' && r.path === '/v1/payment_intents').at(-1)!
    expect(charge.form).toMatchObject({ payment_method: 'pm_card_visa', amount: '5000', off_session: 'true' })
    await post(stripe.event('payment_intent.succeeded', [...stripe.intents.values()].at(-1)!))
    expect(await balanceOf(key.id)).toBe(1_000_000_000)
  })

  it("refuses an event not signed with the endpoint's secret", async () => {
    const forged = {
      payload: JSON.stringify({ id: 'evt_x', type: 'checkout.session.completed', data: { object: {} } }),
      signature: 't=1,v1=00',
    }
    expect((await post(forged)).status).toBe(400)
  })

  it('refuses an event whose signature is dated ten minutes ahead, and a signed event without an object', async () => {
    const key = await keyWithBalance(database.db, 0)
    const { body } = await call('POST', '/api/v1/checkout_session', {
      bearer: key.apiKey,
      json: { price_id: 'price_tokens_1b' },
    })
    const session = [...stripe.sessions.values()].find((s) => s.url === body.url)!
    const { completed } = stripe.paySession(session.id as string, { email: 'payer@example.com' })
    const ahead = signedPayload(completed.payload, {
      secret: WEBHOOK_SECRET,
      timestamp: Math.floor(Date.now() / 1000) + 600,
    })
    expect(await post(ahead)).toMatchObject({ status: 400, body: { detail: 'Invalid payment event signature' } })
    expect(await balanceOf(key.id)).toBe(0)
    const empty = signedPayload(
      JSON.stringify({ id: 'evt_1Empty', object: 'event', type: 'checkout.session.completed', data: { object: null } }),
      { secret: WEBHOOK_SECRET },
    )
    expect(await post(empty)).toMatchObject({
      status: 400,
      body: { detail: 'Malformed payment event: data.object must be an object' },
    })
    expect(
      await scalar(
        database.db,
        sql`select count(*) from payment_events where id = 'evt_1Empty' and failed_at is not null`,
      ),
    ).toBe(1)
    expect((await post(completed)).status).toBe(200)
    expect(await balanceOf(key.id)).toBe(1_000_000_000)
  })

  it('saves the card for auto-recharge, charges it off-session with the attempt as idempotency key, and credits from the webhook', async () => {
    const key = await keyWithBalance(database.db, 0)
    const { body } = await call('POST', '/api/v1/auto_recharge', {
      bearer: key.apiKey,
      json: {
        price_id: 'price_tokens_1b',
        success_url: 'http://localhost:3000/api-dashboard/auto-recharge',
        cancel_url: 'http://localhost:3000/api-dashboard/auto-recharge',
        email: 'payer@example.com',
        metadata: { auto_recharge: true, threshold: 500_000_000, currency: 'USD' },
      },
    })
    const created = stripe.requests.filter((r) => r.path === '/v1/checkout/sessions').at(-1)!
    expect(created.form['payment_intent_data[setup_future_usage]']).toBe('off_session')
    const session = [...stripe.sessions.values()].find((s) => s.url === body.url)!
    await post(stripe.paySession(session.id as string).completed)
    expect(await balanceOf(key.id)).toBe(1_000_000_000)

    await consume(database.db, {
      keyId: key.id,
      tokens: 600_000_000,
      usageEventId: `spend-${key.id}`,
      product: 'reader',
    })
    const ctx = { db: database.db, provider: paymentProvider(), caps: { perDay: 5, perMonth: 30 }, leaseSeconds: 120 }
    await workRecharges(ctx)
    const charge = stripe.requests.filter((r) => r.method === 'POST' && r.path === '/v1/payment_intents').at(-1)!
    expect(charge.form).toMatchObject({
      off_session: 'true',
      confirm: 'true',
      payment_method: 'pm_card_visa',
      amount: '5000',
      currency: 'usd',
    })
    const intent = [...stripe.intents.values()].at(-1)!
    expect(await balanceOf(key.id)).toBe(400_000_000)
    await post(stripe.event('payment_intent.succeeded', intent))
    expect(await balanceOf(key.id)).toBe(1_400_000_000)
    expect(
      await scalar(
        database.db,
        sql`select count(*) from auto_recharge_attempts where key_id = ${key.id}::uuid and status = 'succeeded'`,
      ),
    ).toBe(1)
  })

  it('turns auto-recharge off and charges nothing when Stripe declines the saved card', async () => {
    const key = await keyWithBalance(database.db, 0)
    const { body } = await call('POST', '/api/v1/auto_recharge', {
      bearer: key.apiKey,
      json: {
        price_id: 'price_tokens_1b',
        success_url: 'http://localhost:3000/api-dashboard/auto-recharge',
        cancel_url: 'http://localhost:3000/api-dashboard/auto-recharge',
        metadata: { auto_recharge: true, threshold: 500_000_000, currency: 'USD' },
      },
    })
    const session = [...stripe.sessions.values()].find((s) => s.url === body.url)!
    await post(stripe.paySession(session.id as string, { paymentMethod: 'pm_card_chargeDeclined' }).completed)
    await consume(database.db, {
      keyId: key.id,
      tokens: 600_000_000,
      usageEventId: `spend-${key.id}`,
      product: 'reader',
    })
    await workRecharges({
      db: database.db,
      provider: paymentProvider(),
      caps: { perDay: 5, perMonth: 30 },
      leaseSeconds: 120,
    })
    expect(await balanceOf(key.id)).toBe(400_000_000)
    expect(
      await scalar(database.db, sql`select count(*) from api_keys where id = ${key.id}::uuid and not auto_recharge`),
    ).toBe(1)
    expect(
      await scalar(
        database.db,
        sql`select count(*) from auto_recharge_attempts where key_id = ${key.id}::uuid and failure = 'Your card was declined.'`,
      ),
    ).toBe(1)
  })
})
