/** Contracts of the billing calls: transactions, consumption, balance transfer and balance alerts. */
import * as v from 'valibot'
import { thresholdsSchema } from '~/lib/balance-notification-schema'
import { decodeCursor } from '~/lib/cursor'
import { idText, isoDate, presentedKey, wholeNumberText } from './common'
import { ledgerEntryTypes, transactionReasons } from './ledger'

export const transactionQuery = v.strictObject({
  transaction_id: v.optional(
    v.pipe(idText('must be a transaction id'), v.description('A transaction of this key; the latest when omitted.')),
  ),
})

export const transactionAnswer = v.object({
  id: v.string(),
  type: v.picklist(ledgerEntryTypes),
  amount: v.number(),
  balance_after: v.number(),
  product: v.nullable(v.string()),
  model: v.nullable(v.string()),
  created_at: v.string(),
  /** Why an entry that is neither plain usage nor a purchase was made (a refund, tokens given back); null otherwise. */
  reason: v.optional(v.nullable(v.picklist(transactionReasons))),
  /**
   * With `group_requests=true`, a row that stands for several entries of one request: the tokens its
   * reservations (or its debit) took, what it gave back, and how many ledger entries they are.
   */
  request: v.optional(v.object({ entries: v.number(), reserved: v.number(), given_back: v.number() })),
})

export const paginatedTransactionQuery = v.strictObject({
  num_records: v.optional(wholeNumberText(1, 100), '20'),
  cursor: v.optional(
    v.pipe(
      v.string(),
      v.check((cursor) => decodeCursor(cursor) !== undefined, 'is not a cursor from this API'),
      v.description('`next_cursor` of the previous page.'),
    ),
  ),
  group_requests: v.optional(
    v.pipe(
      v.picklist(['true', 'false'], 'must be true or false'),
      v.description(
        "`true`: the entries of one request (a streamed answer's reservations and what it gave back, a failed request and its refund) as one row with their net tokens, as the dashboard lists them.",
      ),
    ),
    'false',
  ),
})

export const paginatedTransactionAnswer = v.object({
  transactions: v.array(transactionAnswer),
  next_cursor: v.nullable(v.string()),
})

export const totalConsumptionQuery = v.strictObject({
  start: v.optional(v.pipe(isoDate, v.description('First day (UTC), inclusive; default 30 days before end.'))),
  end: v.optional(
    v.pipe(isoDate, v.description('Last day (UTC), inclusive; default today. At most 366 days after start.')),
  ),
})

const tokensByProduct = v.record(v.string(), v.number())
export const totalConsumptionAnswer = v.object({
  start: v.string(),
  end: v.string(),
  total_tokens: v.number(),
  by_product: tokensByProduct,
  by_day: v.array(v.object({ date: v.string(), total_tokens: v.number(), by_product: tokensByProduct })),
  /** Per product and the model the caller asked for, most used first. */
  by_model: v.array(v.object({ product: v.string(), model: v.nullable(v.string()), tokens: v.number() })),
})

export const transferBalanceQuery = v.strictObject({
  receiver_key: v.pipe(presentedKey, v.minLength(1, 'is required')),
  revoke_sender_key: v.pipe(
    v.literal('true', 'must be true: a transfer moves the whole balance and revokes the sender'),
    v.description('Must be `true`.'),
  ),
})

export const transferAnswer = v.object({
  transfer_id: v.string(),
  amount: v.number(),
  sender_balance: v.number(),
  receiver_balance: v.number(),
  sender_revoked: v.boolean(),
})

export const balanceNotificationBody = v.strictObject({
  thresholds: thresholdsSchema,
  email: v.pipe(v.string(), v.maxLength(254), v.email('must be an e-mail address')),
})

export const balanceNotificationAnswer = v.object({
  thresholds: v.array(v.number()),
  email: v.nullable(v.string()),
  armed: v.record(v.string(), v.boolean()),
})

export type Transaction = v.InferOutput<typeof transactionAnswer>
export type TransactionPage = v.InferOutput<typeof paginatedTransactionAnswer>
export type ConsumptionTotals = v.InferOutput<typeof totalConsumptionAnswer>
export type TransferResult = v.InferOutput<typeof transferAnswer>
export type BalanceNotification = v.InferOutput<typeof balanceNotificationAnswer>
