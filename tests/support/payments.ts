import Stripe from 'stripe'
import { sql } from 'drizzle-orm'
import { testCards, type TestCard } from '~/contracts/sandbox-cards'
import { paymentProvider, paymentSandbox } from '~/server/api/payments/provider'
import { workRecharges } from '~/server/api/payments/recharge-worker'
import type { Db } from '~/server/db/types'
import { call, scalar } from './api'

/** The sandbox's webhook secret in tests, so a test can sign events as the service would. */
export const SANDBOX_SECRET = 'whsec_test_sandbox_secret_0123456789'

const signer = new Stripe('sk_test_signer', { httpClient: Stripe.createFetchHttpClient() })

/** Any body signed with the sandbox's secret (or `secret`) at `timestamp` (default: now), as the service signs it. */
export function signedPayload(payload: string, options: { secret?: string; timestamp?: number } = {}) {
  const signature = signer.webhooks.generateTestHeaderString({
    payload,
    secret: options.secret ?? SANDBOX_SECRET,
    ...(options.timestamp ? { timestamp: options.timestamp } : {}),
  })
  return { payload, signature }
}

/** A Stripe-shaped event of `type` about `object`, signed with the sandbox's secret (or `secret`), as the service sends it. */
export function signedEvent(
  type: string,
  object: Record<string, unknown>,
  options: { secret?: string; timestamp?: number; id?: string } = {},
) {
  const payload = JSON.stringify({
    id: options.id ?? `evt_test_${crypto.randomUUID().replace(/-/g, '')}`,
    object: 'event',
    type,
    created: Math.floor(Date.now() / 1000),
    data: { object },
  })
  return signedPayload(payload, options)
}

export const postWebhook = (payload: string, signature?: string) =>
  call('POST', '/api/v1/billing/webhook/stripe', {
    body: payload,
    headers: { 'content-type': 'application/json', ...(signature ? { 'stripe-signature': signature } : {}) },
  })

export const card = (name: TestCard) => ({
  email: 'buyer@example.com',
  number: testCards[name],
  expiry: '12/40',
  cvc: '123',
})

export const sandbox = () => {
  const found = paymentSandbox()
  if (!found) throw new Error('the tests expect the sandbox payment provider (no STRIPE_* variables)')
  return found
}

/** A checkout for `priceId` on the key, as its holder starts it; answers the session id. */
export async function startCheckout(apiKey: string, priceId = 'price_tokens_1b') {
  const { status, body } = await call('POST', '/api/v1/checkout_session', {
    bearer: apiKey,
    json: { price_id: priceId },
  })
  if (status !== 200) throw new Error(`checkout_session answered ${status}: ${JSON.stringify(body)}`)
  return body.id as string
}

/** Buys a pack in the sandbox with `name`'s test card: checkout, pay, events delivered. */
export async function buyPack(apiKey: string, priceId = 'price_tokens_1b', name: TestCard = 'succeeds') {
  const session = await startCheckout(apiKey, priceId)
  const paid = await sandbox().pay(session, card(name))
  return { session, paid }
}

/** Turns auto-recharge on through a checkout that buys `priceId` and saves `name`'s card. */
export async function buyWithAutoRecharge(
  apiKey: string,
  threshold: number,
  name: TestCard = 'succeeds',
  priceId = 'price_tokens_1b',
) {
  const { status, body } = await call('POST', '/api/v1/auto_recharge', {
    bearer: apiKey,
    json: {
      price_id: priceId,
      success_url: 'http://localhost:3000/api-dashboard/auto-recharge',
      cancel_url: 'http://localhost:3000/api-dashboard/auto-recharge',
      email: 'buyer@example.com',
      metadata: { auto_recharge: true, threshold, currency: 'USD' },
    },
  })
  if (status !== 200) throw new Error(`auto_recharge answered ${status}: ${JSON.stringify(body)}`)
  const session = new URL(body.url).pathname.split('/').pop()!
  const paid = await sandbox().pay(session, card(name))
  if (paid?.kind === 'authenticate') await sandbox().authenticate(session, true)
  return session
}

/** Works the recharge queue once and waits for the events the charges sent. */
export async function runRecharges(db: Db, caps = { perDay: 5, perMonth: 30 }) {
  const worked = await workRecharges({ db, provider: paymentProvider(), caps, leaseSeconds: 120 })
  await sandbox().idle()
  return worked
}

export const purchaseCredits = (db: Db, keyId: string) =>
  scalar(db, sql`select count(*) from ledger_entries where key_id = ${keyId}::uuid and type = 'purchase'`)
