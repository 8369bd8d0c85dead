import type * as v from 'valibot'
import type { autoRechargeBody, checkoutBody } from '~/contracts/payments'
import { serverEnv } from '~/server/env'
import type { Db } from '../../db/types'
import { billingProfileOf, disableAutoRecharge, enableAutoRecharge } from '../../domain/auto-recharge'
import type { AuditBy } from '../../domain/audit'
import type { ApiKey } from '../../domain/keys'
import { refuseSharedBalance } from '../../domain/organisation-keys'
import { packByPriceId } from '../../domain/packs'
import { attachCheckoutSession, createPurchase } from '../../domain/purchases'
import { InvalidInput } from '../../domain/refusals'
import { keyOf, type Caller } from '../caller'
import { startCardSetup } from './card-setup'
import { paymentProvider } from './provider'
import { kickRecharges } from './recharge-signal'
import { returnUrls } from './return-urls'
import { auditBy } from '../audit/actor'

type CheckoutBody = v.InferOutput<typeof checkoutBody>
type AutoRechargeBody = v.InferOutput<typeof autoRechargeBody>

/**
 * A purchase row for the key, then the service's checkout for it: the row fixes what will be credited to
 * whom before the buyer sees a payment page, and its id rides along so the events find it.
 */
export async function startCheckout(
  db: Db,
  key: ApiKey,
  request: {
    priceId: string
    email?: string | null
    successUrl: string
    cancelUrl: string
    rechargeThreshold?: number
  },
) {
  const provider = paymentProvider()
  const pack = packByPriceId(request.priceId)!
  const email = request.email ?? key.email ?? undefined
  const purchase = await createPurchase(db, {
    keyId: key.id,
    provider: provider.kind,
    kind: 'checkout',
    priceId: pack.price_id,
    tokens: pack.token_quantity,
    amount: Math.round(pack.price * 100),
    currency: pack.currency,
    email,
    rechargeThreshold: request.rechargeThreshold,
  })
  const profile = await billingProfileOf(db, key.id)
  const session = await provider.createCheckout({
    purchaseId: purchase.id,
    keyId: key.id,
    pack,
    email,
    customerId: profile?.provider === provider.kind ? (profile.customerId ?? undefined) : undefined,
    // Every checkout keeps its card (the payment page says so), so auto-recharge can use it without a second purchase.
    saveCard: true,
    successUrl: request.successUrl,
    cancelUrl: request.cancelUrl,
  })
  await attachCheckoutSession(db, purchase.id, session.id)
  return session
}

/** POST /api/v1/checkout_session: a checkout for one of the two packs; the tokens come with its payment. */
export async function createCheckoutFor(caller: Caller, body: CheckoutBody): Promise<{ id: string; url: string }> {
  const { db, key } = await keyOf(caller)
  refuseSharedBalance(key)
  return startCheckout(db, key, {
    priceId: body.price_id,
    email: body.email,
    ...returnUrls(serverEnv(), body),
  })
}

/**
 * POST /api/v1/auto_recharge: turns auto-recharge on (or off, with `auto_recharge: false`). A key with a
 * saved card (from a purchase or saved alone) is set at once and sent to `success_url`; any other key goes
 * to a checkout: with `save_card_only`, one that saves a card and charges nothing, else one that buys the
 * pack and keeps its card. Auto-recharge starts when the card is saved or the payment credited.
 */
export async function autoRechargeFor(caller: Caller, body: AutoRechargeBody): Promise<{ url: string }> {
  const { db, key } = await keyOf(caller)
  refuseSharedBalance(key)
  return autoRechargeOf(db, auditBy(caller), key, body, returnUrls(serverEnv(), body))
}

/** Auto-recharge of a balance: a key's own, or an organisation's shared one (`key` is then its balance row). */
export async function autoRechargeOf(
  db: Db,
  by: AuditBy,
  key: ApiKey,
  body: AutoRechargeBody,
  urls: { successUrl: string; cancelUrl: string },
): Promise<{ url: string }> {
  if (!body.metadata.auto_recharge) {
    await disableAutoRecharge(db, by, key.id)
    return { url: urls.cancelUrl }
  }
  const provider = paymentProvider()
  const pack = packByPriceId(body.price_id)!
  if (body.metadata.currency.toUpperCase() !== pack.currency.toUpperCase())
    throw new InvalidInput([
      { loc: ['body', 'metadata', 'currency'], msg: `must be ${pack.currency}, the pack's currency`, type: 'currency' },
    ])
  const profile = await billingProfileOf(db, key.id)
  if (profile?.paymentMethodId && profile.provider === provider.kind) {
    if (await enableAutoRecharge(db, by, key.id, body.metadata.threshold, pack.price_id)) kickRecharges()
    return { url: urls.successUrl.replace('{CHECKOUT_SESSION_ID}', '') }
  }
  if (body.save_card_only)
    return startCardSetup(db, provider, key, {
      pack,
      threshold: body.metadata.threshold,
      email: body.email ?? key.email ?? undefined,
      ...urls,
    })
  const session = await startCheckout(db, key, {
    priceId: pack.price_id,
    email: body.email,
    rechargeThreshold: body.metadata.threshold,
    ...urls,
  })
  return { url: session.url }
}
