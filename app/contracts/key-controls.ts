/** Contracts of the per-key controls of an account's key: spending caps, scopes, expiry and address ranges. */
import * as v from 'valibot'
import { MAX_ADDRESS_RANGES, normaliseRange } from '~/lib/address-ranges'
import { maxTokens } from './common'

/** What a key can be charged for, by the product name its ledger entries carry. */
export const controlledProducts = [
  'embeddings',
  'reranker',
  'classifier',
  'reader',
  'deepsearch',
  'bulk-embeddings',
] as const
export type ControlledProduct = (typeof controlledProducts)[number]

export const MAX_ALLOWED_MODELS = 64

const cap = v.nullable(
  v.pipe(
    v.number(),
    v.integer('must be a whole number of tokens'),
    v.minValue(1, 'must be at least 1 token'),
    v.maxValue(maxTokens, `must be at most ${maxTokens} tokens`),
  ),
)

const modelId = v.pipe(v.string(), v.regex(/^[a-z0-9][a-z0-9._-]{0,79}$/i, 'must be a model API id'))

const ranges = v.pipe(
  v.array(
    v.pipe(
      v.string(),
      v.maxLength(64),
      v.check((r) => normaliseRange(r) !== undefined, 'must be an IPv4 or IPv6 address or CIDR range'),
    ),
  ),
  v.maxLength(MAX_ADDRESS_RANGES, `must hold at most ${MAX_ADDRESS_RANGES} ranges`),
  v.transform((list) => [...new Set(list.map((r) => normaliseRange(r)!))]),
)

/** Null in any field means "no limit". Setting the controls replaces all of them. */
export const keyControlsInput = v.pipe(
  v.strictObject({
    daily_cap: cap,
    monthly_cap: cap,
    allowed_products: v.nullable(
      v.pipe(
        v.array(v.picklist(controlledProducts, 'must name a product')),
        v.transform((l) => [...new Set(l)]),
      ),
    ),
    allowed_models: v.nullable(
      v.pipe(
        v.array(modelId),
        v.maxLength(MAX_ALLOWED_MODELS, `must hold at most ${MAX_ALLOWED_MODELS} models`),
        v.transform((l) => [...new Set(l)]),
      ),
    ),
    expires_at: v.nullable(
      v.pipe(
        v.string(),
        v.isoTimestamp('must be an ISO 8601 time'),
        v.check((t) => Date.parse(t) > Date.now(), 'must be in the future'),
        v.transform((t) => new Date(t).toISOString()),
      ),
    ),
    allowed_networks: v.nullable(ranges),
  }),
  v.forward(
    v.check(
      (c) => c.daily_cap === null || c.monthly_cap === null || c.daily_cap <= c.monthly_cap,
      'must not be more than the monthly cap',
    ),
    ['daily_cap'],
  ),
)
export type KeyControlsInput = v.InferOutput<typeof keyControlsInput>

export const keyControlsAnswer = v.object({
  key_id: v.string(),
  daily_cap: v.nullable(v.number()),
  monthly_cap: v.nullable(v.number()),
  allowed_products: v.nullable(v.array(v.string())),
  allowed_models: v.nullable(v.array(v.string())),
  expires_at: v.nullable(v.string()),
  allowed_networks: v.nullable(v.array(v.string())),
  /** Tokens spent in the current UTC day and month (what the caps are measured against). */
  spent_today: v.number(),
  spent_this_month: v.number(),
})
export type KeyControls = v.InferOutput<typeof keyControlsAnswer>
