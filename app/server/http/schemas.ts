/**
 * The dashboard API's inputs and answers as valibot schemas: routes validate with them and
 * /api/v1/openapi.json is generated from them, so the two cannot drift apart.
 */
import * as v from 'valibot'
import { thresholdsSchema } from '../../lib/balance-notification-schema'
import { modelTags } from '../../../content/schemas'
import { ledgerEntryTypes } from '../db/schema/ledger'

const MAX_TOKENS = 1_000_000_000_000
const intString = (min: number, max: number) =>
  v.pipe(v.string(), v.regex(/^\d{1,15}$/, 'must be a whole number'), v.transform(Number), v.minValue(min), v.maxValue(max))
const isoDate = v.pipe(v.string(), v.isoDate('must be a date (YYYY-MM-DD)'))

export const captchaForm = v.strictObject({ captcha: v.pipe(v.string(), v.minLength(1, 'is required'), v.maxLength(8192), v.description('The captcha widget response (ALTCHA payload or Turnstile token).')) })

export const feUserQuery = v.strictObject({ api_key: v.optional(v.pipe(v.string(), v.maxLength(200), v.description('The key, when not sent as a bearer token.'))) })

export const transactionQuery = v.strictObject({ transaction_id: v.optional(v.pipe(v.string(), v.regex(/^\d{1,18}$/, 'must be a transaction id'), v.description('A transaction of this key; the latest when omitted.'))) })

export const paginatedTransactionQuery = v.strictObject({
  num_records: v.optional(intString(1, 100), '20'),
  cursor: v.optional(v.pipe(v.string(), v.maxLength(64), v.description('`next_cursor` of the previous page.'))),
})

export const totalConsumptionQuery = v.strictObject({
  start: v.optional(v.pipe(isoDate, v.description('First day (UTC), inclusive; default 30 days ago.'))),
  end: v.optional(v.pipe(isoDate, v.description('Last day (UTC), inclusive; default today. At most 366 days after start.'))),
})

export const transferBalanceQuery = v.strictObject({
  receiver_key: v.pipe(v.string(), v.minLength(1, 'is required'), v.maxLength(200)),
  revoke_sender_key: v.pipe(v.literal('true', 'must be true: a transfer moves the whole balance and revokes the sender'), v.description('Must be `true`.')),
})

export const balanceNotificationBody = v.strictObject({
  thresholds: thresholdsSchema,
  email: v.pipe(v.string(), v.maxLength(254), v.email('must be an e-mail address')),
})

export const modelsQuery = v.strictObject({ tag: v.optional(v.pipe(v.array(v.picklist(modelTags)), v.description('Repeatable; models carrying every given tag.'))) })

const productName = v.pipe(v.string(), v.regex(/^[a-z0-9][a-z0-9._-]{0,63}$/, 'must be a product name like embeddings'))
export const usageBody = v.pipe(
  v.strictObject({
    api_key: v.optional(v.pipe(v.string(), v.maxLength(200))),
    key_id: v.optional(v.pipe(v.string(), v.uuid('must be a key id'))),
    product: productName,
    model: v.optional(v.pipe(v.string(), v.maxLength(128))),
    tokens: v.pipe(v.number('must be a number'), v.integer('must be a whole number'), v.minValue(1), v.maxValue(MAX_TOKENS)),
    usage_event_id: v.pipe(v.string(), v.minLength(1), v.maxLength(200), v.description('Idempotency key: the same event is charged once.')),
  }),
  v.check((b) => (b.api_key === undefined) !== (b.key_id === undefined), 'give exactly one of api_key and key_id'),
)

// Answers

export const errorAnswer = v.object({ detail: v.union([v.string(), v.array(v.object({ loc: v.array(v.union([v.string(), v.number()])), msg: v.string(), type: v.string() }))]) })
export const apiKeyAnswer = v.object({ api_key: v.string() })
export const keyInfoAnswer = v.object({
  key_id: v.string(),
  key_display: v.string(),
  email: v.nullable(v.string()),
  wallet: v.object({ total_balance: v.number() }),
  metadata: v.object({ speed_level: v.number(), auto_recharge: v.boolean() }),
  created_at: v.string(),
})
export const transactionAnswer = v.object({
  id: v.string(),
  type: v.picklist(ledgerEntryTypes),
  amount: v.number(),
  balance_after: v.number(),
  product: v.nullable(v.string()),
  model: v.nullable(v.string()),
  created_at: v.string(),
})
export const paginatedTransactionAnswer = v.object({ transactions: v.array(transactionAnswer), next_cursor: v.nullable(v.string()) })
const tokensByProduct = v.record(v.string(), v.number())
export const totalConsumptionAnswer = v.object({
  start: v.string(),
  end: v.string(),
  total_tokens: v.number(),
  by_product: tokensByProduct,
  by_day: v.array(v.object({ date: v.string(), total_tokens: v.number(), by_product: tokensByProduct })),
})
export const transferAnswer = v.object({ transfer_id: v.string(), amount: v.number(), sender_balance: v.number(), receiver_balance: v.number(), sender_revoked: v.boolean() })
export const balanceNotificationAnswer = v.object({ thresholds: v.array(v.number()), email: v.nullable(v.string()), armed: v.record(v.string(), v.boolean()) })
export const packAnswer = v.object({
  id: v.string(),
  product_id: v.string(),
  product_name: v.string(),
  product_description: v.string(),
  price: v.number(),
  price_id: v.string(),
  currency: v.string(),
  token_quantity: v.number(),
})
export const modelAnswer = v.object({
  slug: v.string(),
  name: v.string(),
  tags: v.array(v.string()),
  parameters: v.string(),
  context_length: v.number(),
  dimensions: v.nullable(v.number()),
  release_date: v.string(),
  description: v.string(),
  hugging_face_url: v.string(),
  license: v.string(),
  num_replicas: v.number(),
  benchmark: v.nullable(v.object({ name: v.string(), metric: v.string(), score: v.number() })),
  paper_ids: v.array(v.string()),
  image: v.string(),
})
export const usageAnswer = v.object({ usage_event_id: v.string(), key_id: v.string(), tokens: v.number(), balance: v.number(), duplicate: v.boolean() })
export const revokedAnswer = v.object({ detail: v.string() })
