/** Contracts of the usage summary: requests, tokens and their cost per day, product, model and key. */
import * as v from 'valibot'
import { isoDate } from './common'

export const usageSummaryQuery = v.strictObject({
  start: v.optional(v.pipe(isoDate, v.description('First day (UTC), inclusive; default 30 days before end.'))),
  end: v.optional(
    v.pipe(isoDate, v.description('Last day (UTC), inclusive; default today. At most 366 days after start.')),
  ),
  key_id: v.optional(
    v.pipe(v.string(), v.uuid('must be a key id'), v.description("One of the account's keys; default: all of them.")),
  ),
})

export const usageSummaryInput = v.strictObject({
  apiKey: v.optional(v.pipe(v.string(), v.maxLength(200))),
  ...usageSummaryQuery.entries,
})

const counts = {
  /** Requests answered (2xx). */
  requests: v.number(),
  /** Requests refused (4xx: the caller's to change, such as the balance, the input or the rate). */
  refused: v.number(),
  /** Requests that failed on this side (5xx), as the request log calls them. */
  failed: v.number(),
  /** Tokens used, net of those given back. */
  tokens: v.number(),
  /** What those tokens cost at the price paid, in `price.currency`; null without a purchase to price them. */
  cost: v.nullable(v.number()),
}

export const usageSummaryAnswer = v.object({
  start: v.string(),
  end: v.string(),
  /**
   * The price the tokens were bought at: the paid purchases behind these keys' balance, in the latest one's
   * currency; `transferred` of them were made for keys whose balance was transferred into these.
   */
  price: v.nullable(
    v.object({ currency: v.string(), per_million_tokens: v.number(), purchases: v.number(), transferred: v.number() }),
  ),
  totals: v.object(counts),
  by_day: v.array(v.object({ date: v.string(), ...counts })),
  by_model: v.array(v.object({ product: v.string(), model: v.nullable(v.string()), ...counts })),
  by_key: v.array(v.object({ key_id: v.string(), label: v.string(), ...counts })),
  /** Requests sent with an `X-Request-Tag`, per tag; their tokens are the request log's (answered less given back). */
  by_tag: v.array(v.object({ tag: v.string(), ...counts })),
  /** The keys' usage by the project each is in now (`project_id` null: in none); its name as the organisation set it. */
  by_project: v.array(v.object({ project_id: v.nullable(v.string()), name: v.nullable(v.string()), ...counts })),
  keys: v.array(v.object({ key_id: v.string(), label: v.string() })),
  /**
   * The presented key's balance and the scale its bar is drawn against: the largest balance the key held in
   * the period, or its last purchase when that was larger; `basis` says which.
   */
  balance: v.object({
    current: v.number(),
    scale: v.number(),
    basis: v.picklist(['largest_balance', 'last_purchase']),
  }),
})

export type UsageSummary = v.InferOutput<typeof usageSummaryAnswer>
