/** Contracts of spend limits: the most a key may consume in a UTC day, week (from Monday) or month, in tokens or dollars. */
import * as v from 'valibot'
import { maxTokens } from './common'

export const spendLimitUnits = ['tokens', 'usd'] as const
export const spendLimitPeriods = ['day', 'week', 'month'] as const
export type SpendLimitUnit = (typeof spendLimitUnits)[number]
export type SpendLimitPeriod = (typeof spendLimitPeriods)[number]

/** How many limits one key may have: one per unit and period is 6; a few more leave room for alerts at other shares. */
export const MAX_SPEND_LIMITS = 10
/** The largest limit in dollars. */
export const MAX_USD_LIMIT = 1_000_000_000

const email = v.pipe(v.string(), v.maxLength(254), v.email('must be an e-mail address'))

export const spendLimitInput = v.pipe(
  v.strictObject({
    unit: v.picklist(spendLimitUnits, 'must be tokens or usd'),
    amount: v.pipe(v.number(), v.minValue(0.000001, 'must be more than 0')),
    period: v.picklist(spendLimitPeriods, 'must be day, week or month'),
    /** Mail the alert address once a period when this share (percent) of the limit is used; null: no alert. */
    alert_percent: v.optional(
      v.nullable(
        v.pipe(
          v.number(),
          v.integer('must be a whole percentage'),
          v.minValue(1, 'must be at least 1'),
          v.maxValue(100, 'must be at most 100'),
        ),
      ),
      null,
    ),
    /** Where the alert goes; by default the key's owner's address. */
    alert_email: v.optional(v.nullable(email), null),
  }),
  v.forward(
    v.check(
      (l) =>
        l.unit === 'tokens'
          ? Number.isInteger(l.amount) && l.amount <= maxTokens
          : l.amount <= MAX_USD_LIMIT && Math.abs(l.amount * 1e6 - Math.round(l.amount * 1e6)) < 1e-6,
      `must be a whole number of tokens up to ${maxTokens}, or dollars up to ${MAX_USD_LIMIT} to the micro-dollar`,
    ),
    ['amount'],
  ),
)
export type SpendLimitInput = v.InferOutput<typeof spendLimitInput>

export const spendLimitAnswer = v.object({
  id: v.string(),
  subject_kind: v.picklist(['key', 'project']),
  subject_id: v.string(),
  unit: v.picklist(spendLimitUnits),
  /** Tokens, or dollars. */
  amount: v.number(),
  period: v.picklist(spendLimitPeriods),
  alert_percent: v.nullable(v.number()),
  alert_email: v.nullable(v.string()),
  /** Spent in the current period, in the limit's unit (dollars at `usd_per_token`), and what is left of it. */
  used: v.number(),
  left: v.number(),
  /** The same in tokens: a dollar limit allows the tokens its amount buys at the price paid. */
  used_tokens: v.number(),
  allowed_tokens: v.number(),
  /** What a token of this key cost (its paid purchases, else the list price): how a dollar limit is measured. */
  usd_per_token: v.nullable(v.number()),
  period_start: v.string(),
  resets_at: v.string(),
  created_at: v.string(),
})
export type SpendLimit = v.InferOutput<typeof spendLimitAnswer>

export const spendLimitsAnswer = v.object({ limits: v.array(spendLimitAnswer) })

export const limitIdParam = v.pipe(v.string(), v.uuid())

/** A limit's amount as the API's words and mails write it: "1,000 tokens" or "$5.00". */
export function spendLimitText(unit: SpendLimitUnit, amount: number): string {
  return unit === 'tokens'
    ? `${amount.toLocaleString('en-US')} tokens`
    : `$${amount.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 6 })}`
}

/** "daily", "weekly", "monthly". */
export const periodAdjective = (period: SpendLimitPeriod) =>
  period === 'day' ? 'daily' : period === 'week' ? 'weekly' : 'monthly'
