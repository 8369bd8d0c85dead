/**
 * Contracts of buying tokens: checkout (spec §7 `POST /api/v1/checkout_session`), auto-recharge
 * (`POST /api/v1/auto_recharge`, `…/settings?threshold=`, `DELETE`), purchase history, and the
 * dashboard's server functions over the same calls.
 */
import * as v from 'valibot'
import { allowedPriceIds } from '#config'
import { maxTokens, presentedKey, wholeNumberText } from './common'

const priceId = v.picklist(allowedPriceIds, `must be one of ${allowedPriceIds.join(', ')}`)
const returnUrl = v.pipe(v.string(), v.maxLength(2000), v.url('must be a URL'))
const email = v.pipe(v.string(), v.trim(), v.maxLength(254), v.email('must be an e-mail address'))
const threshold = v.pipe(
  v.number(),
  v.integer('must be a whole number of tokens'),
  v.minValue(1, 'must be at least 1 token'),
  v.maxValue(maxTokens, `must be at most ${maxTokens} tokens`),
)

export const checkoutBody = v.strictObject({
  price_id: priceId,
  /** Pages of this site only; by default the dashboard's Billing tab. `{CHECKOUT_SESSION_ID}` is filled in. */
  success_url: v.optional(returnUrl),
  cancel_url: v.optional(returnUrl),
  /** The buyer's address for the receipt; a key without an e-mail takes it (spec §6: it becomes paid). */
  email: v.optional(email),
})

export const checkoutAnswer = v.object({ id: v.string(), url: v.string() })

export const autoRechargeBody = v.strictObject({
  price_id: priceId,
  success_url: returnUrl,
  cancel_url: returnUrl,
  email: v.optional(v.nullable(email)),
  /** Save a card in a checkout that charges nothing (setup mode) instead of buying the pack now. */
  save_card_only: v.optional(v.boolean()),
  metadata: v.strictObject({
    auto_recharge: v.boolean(),
    threshold,
    currency: v.pipe(v.string(), v.regex(/^[A-Za-z]{3}$/, 'must be a currency code')),
  }),
})

export const autoRechargeAnswer = v.object({ url: v.string() })

export const rechargeSettingsQuery = v.strictObject({ threshold: wholeNumberText(1, maxTokens) })

export const rechargeStatus = v.object({
  enabled: v.boolean(),
  threshold: v.nullable(v.number()),
  price_id: v.nullable(v.string()),
  /** A key with a saved card (from a purchase, or saved alone) may turn auto-recharge on without another checkout. */
  eligible: v.boolean(),
  card: v.nullable(v.object({ brand: v.string(), last4: v.string() })),
  /** Why it last turned itself off (a declined card), until it is turned on again. */
  disabled_reason: v.nullable(v.string()),
  last_attempt: v.nullable(
    v.object({
      status: v.picklist(['pending', 'charging', 'succeeded', 'failed', 'skipped']),
      failure: v.nullable(v.string()),
      created_at: v.string(),
      finished_at: v.nullable(v.string()),
    }),
  ),
})
export type RechargeStatus = v.InferOutput<typeof rechargeStatus>

export const purchaseItem = v.object({
  id: v.string(),
  kind: v.picklist(['checkout', 'auto_recharge']),
  status: v.picklist(['pending', 'paid', 'failed', 'expired']),
  price_id: v.string(),
  tokens: v.number(),
  /** In the currency's major units, like a pack's `price`. */
  amount: v.number(),
  currency: v.string(),
  card: v.nullable(v.object({ brand: v.string(), last4: v.string() })),
  receipt_url: v.nullable(v.string()),
  payment_id: v.nullable(v.string()),
  reversed_tokens: v.number(),
  sandbox: v.boolean(),
  created_at: v.string(),
  paid_at: v.nullable(v.string()),
  /** A paid purchase's invoice (`INV-000042`), numbered without gaps when it was credited. */
  invoice_number: v.nullable(v.string()),
})
export type PurchaseItem = v.InferOutput<typeof purchaseItem>
export const purchasesAnswer = v.object({ purchases: v.array(purchaseItem) })

export const checkoutReturn = v.object({
  /** `card_saved`: a setup-mode checkout saved its card (nothing was bought). */
  status: v.picklist(['paid', 'pending', 'failed', 'card_saved']),
  tokens: v.number(),
  balance: v.number(),
  card: v.optional(v.nullable(v.object({ brand: v.string(), last4: v.string() }))),
})

const keyField = { apiKey: v.optional(presentedKey) }
export const checkoutInput = v.strictObject({ ...keyField, ...checkoutBody.entries })
export const autoRechargeInput = v.strictObject({ ...keyField, ...autoRechargeBody.entries })
export const rechargeThresholdInput = v.strictObject({ ...keyField, threshold })
export const confirmCheckoutInput = v.strictObject({
  ...keyField,
  session_id: v.pipe(v.string(), v.regex(/^cs_[\w]{1,200}$/, 'must be a checkout session id')),
})
export const sandboxSessionInput = v.strictObject({
  session_id: v.pipe(v.string(), v.regex(/^cs_test_\w{1,64}$/, 'must be a sandbox session id')),
})
export const sandboxPayInput = v.strictObject({
  ...sandboxSessionInput.entries,
  email: v.optional(v.pipe(v.string(), v.maxLength(254))),
  number: v.pipe(v.string(), v.maxLength(40)),
  expiry: v.pipe(v.string(), v.maxLength(10)),
  cvc: v.pipe(v.string(), v.maxLength(8)),
})
export const sandboxAuthenticateInput = v.strictObject({ ...sandboxSessionInput.entries, approve: v.boolean() })
