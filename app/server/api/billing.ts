/** The billing calls (spec §7): transactions, consumption, balance transfer and balance alerts. */
import type * as v from 'valibot'
import type {
  BalanceNotification,
  ConsumptionTotals,
  Transaction,
  TransactionPage,
  TransferResult,
  balanceNotificationBody,
  paginatedTransactionQuery,
  totalConsumptionQuery,
  transactionQuery,
  transferBalanceQuery,
} from '~/contracts/billing'
import type { captchaForm } from '~/contracts/keys'
import { decodeCursor } from '~/lib/cursor'
import { findKey } from '../domain/keys'
import { refuseSharedBalance } from '../domain/organisation-keys'
import { deleteBalanceNotification, getBalanceNotification, setBalanceNotification } from '../domain/notifications'
import {
  InvalidInput,
  InvalidThresholds,
  ReceiverNotFound,
  TransactionNotFound,
  type InputIssue,
} from '../domain/refusals'
import { findTransaction, latestTransaction, paginatedTransactions, totalConsumption } from '../domain/transactions'
import { transferBalance } from '../domain/transfers'
import { requestTransactions } from '../domain/request-transactions'
import { keyOf, passCaptcha, refuseControlledUse, type Caller } from './caller'
import { auditBy } from './audit/actor'

const DAY = 86_400_000
const MAX_DAYS = 366

/** The latest transaction of the caller's key (null before the first), or one by id. */
export async function transactionFor(
  caller: Caller,
  { transaction_id }: v.InferOutput<typeof transactionQuery>,
): Promise<Transaction | null> {
  const { db, key } = await keyOf(caller)
  if (transaction_id === undefined) return latestTransaction(db, key.id)
  const record = await findTransaction(db, key.id, Number(transaction_id))
  if (!record) throw new TransactionNotFound()
  return record
}

/** Newest first, `num_records` at a time, continued from `cursor` (the previous page's `next_cursor`). */
export async function transactionPageFor(
  caller: Caller,
  { num_records, cursor, group_requests }: v.InferOutput<typeof paginatedTransactionQuery>,
): Promise<TransactionPage> {
  const { db, key } = await keyOf(caller)
  const before = cursor === undefined ? undefined : decodeCursor(cursor)
  const read = group_requests === 'true' ? requestTransactions : paginatedTransactions
  return read(db, key.id, num_records, before)
}

/** Tokens consumed per product and per day over [start, end] (UTC days; by default the last 30). */
export async function consumptionFor(
  caller: Caller,
  { start, end }: v.InferOutput<typeof totalConsumptionQuery>,
): Promise<ConsumptionTotals> {
  const today = Math.floor(Date.now() / DAY) * DAY
  const last = end ? Date.parse(`${end}T00:00:00Z`) : today
  const first = start ? Date.parse(`${start}T00:00:00Z`) : last - 29 * DAY
  if (first > last) throw new InvalidInput([{ loc: ['query', 'start'], msg: 'must not be after end', type: 'range' }])
  if ((last - first) / DAY >= MAX_DAYS) {
    throw new InvalidInput([{ loc: ['query', 'end'], msg: `range must be at most ${MAX_DAYS} days`, type: 'range' }])
  }
  const { db, key } = await keyOf(caller)
  return totalConsumption(db, key.id, new Date(first), new Date(last + DAY))
}

type TransferInput = v.InferOutput<typeof transferBalanceQuery> & v.InferOutput<typeof captchaForm>

/** Moves the caller key's whole balance to `receiver_key` and revokes the caller's key, atomically. */
export async function transferFor(caller: Caller, { receiver_key, captcha }: TransferInput): Promise<TransferResult> {
  const { db, key } = await keyOf(caller)
  // A transfer spends the whole balance: the key's expiry and address ranges apply as to any spend, before
  // the captcha is used up (its caps and scopes are judged under the transfer's lock).
  refuseControlledUse(caller, key)
  await passCaptcha(caller, captcha, 'transfer_balance')
  const receiver = await findKey(db, receiver_key)
  if (!receiver) throw new ReceiverNotFound()
  return transferBalance(db, auditBy(caller), key.id, receiver.id)
}

export async function balanceNotificationFor(caller: Caller): Promise<BalanceNotification> {
  const { db, key } = await keyOf(caller)
  return getBalanceNotification(db, key.id)
}

/** Spec §5 answers any problem with the thresholds list with one fixed message, REST and dashboard alike. */
export function refuseInvalidThresholds(issues: InputIssue[]): InvalidThresholds | undefined {
  return issues.some((issue) => issue.loc[1] === 'thresholds') ? new InvalidThresholds() : undefined
}

export async function setBalanceNotificationFor(
  caller: Caller,
  { thresholds, email }: v.InferOutput<typeof balanceNotificationBody>,
): Promise<BalanceNotification> {
  const { db, key } = await keyOf(caller)
  refuseSharedBalance(key)
  return setBalanceNotification(db, auditBy(caller), key.id, thresholds, email)
}

export async function removeBalanceNotificationFor(caller: Caller): Promise<BalanceNotification> {
  const { db, key } = await keyOf(caller)
  refuseSharedBalance(key)
  await deleteBalanceNotification(db, auditBy(caller), key.id)
  return getBalanceNotification(db, key.id)
}
