import { sql } from 'drizzle-orm'
import { PgTransaction } from 'drizzle-orm/pg-core'
import { rowsOf } from '../db/rows'
import type { LedgerEntryType } from '../db/schema'
import type { Db, Tx } from '../db/types'
import { isStorableText } from '~/contracts/common'
import { alertText } from './alert-mail'
import {
  isRefusal,
  EventOfAnotherKey,
  InsufficientBalance,
  InvalidAmount,
  KeyIdNotFound,
  KeyExpired,
  KeyOutOfScope,
  KeyRevoked,
  SpendCapReached,
  SpendLimitReached,
  UnstorableText,
  type RefusingLimit,
} from './refusals'
import { runStatement } from './statement'

/**
 * Every balance change is a ledger entry applied by the database function `ledger_apply_v3`
 * (app/server/db/functions/ledger.sql), which holds the rule: no balance below zero, a revoked key
 * takes nothing, each event lands once, no consumption passes a cap or spend limit, and alerts fire when
 * a threshold or a limit's alert share is crossed. An entry of a key that draws on an organisation's shared
 * balance moves that balance (`balance` in the outcome is that balance).
 */
export interface EntryInput {
  keyId: string
  /** Signed: credits positive, debits negative. */
  amount: number
  type: LedgerEntryType
  /** Names the event behind the entry; a second entry for the same event is refused. */
  externalRef: string
  product?: string
  model?: string
  counterpartyKeyId?: string
}

export interface EntryResult {
  entryId: number
  balance: number
  alerts: number
  /** 1 when the entry opened an auto-recharge attempt for its key. */
  recharges: number
  duplicate: boolean
}

/** What ledger_apply answered for one entry. `balance` is the key's balance after it, null when there is no such key. */
export type EntryOutcome =
  | { outcome: 'applied' | 'duplicate'; entryId: number; balance: number; alerts: number; recharges: number }
  | {
      outcome:
        | 'conflict'
        | 'not_found'
        | 'revoked'
        | 'insufficient'
        | 'invalid'
        | 'expired'
        | 'out_of_scope'
        | 'over_daily_cap'
        | 'over_monthly_cap'
        | 'over_spend_limit'
      entryId: null
      balance: number | null
      alerts: number
      recharges: number
      /** The cap a consumption would have passed (`over_*_cap`). */
      cap?: number
      /** The spend limit it would have passed (`over_spend_limit`). */
      spendLimit?: RefusingLimit
    }

const RETRIES = 3
const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/**
 * Refuses what the database could not even parse or store, before the entry joins a batch: such an
 * entry would fail the whole statement, and with it its neighbours. The rest (sign, balance, key) is
 * ledger_apply's to judge, entry by entry.
 */
export function checkEntry(entry: EntryInput): EntryInput {
  if (!Number.isSafeInteger(entry.amount) || entry.amount === 0) throw new InvalidAmount()
  for (const id of [entry.keyId, entry.counterpartyKeyId ?? entry.keyId])
    if (typeof id !== 'string' || !uuidPattern.test(id)) throw new KeyIdNotFound()
  for (const text of [entry.externalRef, entry.product ?? '', entry.model ?? ''])
    if (typeof text !== 'string' || !isStorableText(text)) throw new UnstorableText()
  return entry
}

/**
 * Whether a failed batch may owe its failure to one of its entries: an entry refused before the statement
 * ran, or Postgres refusing the statement for what it holds (data exceptions, constraints, a raised
 * exception). Not when the database is unreachable, out of resources, shutting down, cancelled the
 * statement or kept aborting it on deadlocks: running the entries one by one would only multiply the load.
 */
export function isEntrysFault(error: unknown): boolean {
  if (isRefusal(error)) return true
  for (let e: unknown = error; e; e = (e as { cause?: unknown }).cause) {
    const code = (e as { code?: unknown }).code
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return !/^(08|40|53|57|58|XX)/.test(code)
  }
  return false
}

/**
 * Applies entries of any keys and types in ONE statement (one transaction and one commit unless `db`
 * is a caller's transaction) and answers each with its own outcome, in order. Retried whole when
 * Postgres broke a deadlock by aborting it; inside a caller's transaction the caller decides.
 */
export async function applyEntries(db: Db | Tx, entries: EntryInput[]): Promise<EntryOutcome[]> {
  const rows = entries.map((entry) => {
    const { keyId, amount, type, externalRef, product, model, counterpartyKeyId } = checkEntry(entry)
    return {
      key_id: keyId,
      amount,
      type,
      external_ref: externalRef,
      product,
      model,
      counterparty_key_id: counterpartyKeyId,
    }
  })
  const query = sql`select item, outcome, entry_id, balance, alerts, recharges, cap, spend_limit from ledger_apply_v3(${JSON.stringify(rows)}::jsonb, ${JSON.stringify(alertText())}::jsonb)`
  for (let attempt = 1; ; attempt++) {
    try {
      return outcomesOf(await runStatement(db, query), entries.length)
    } catch (error) {
      if (attempt >= RETRIES || db instanceof PgTransaction || !isTransient(error)) throw error
    }
  }
}

function outcomesOf(result: unknown, count: number): EntryOutcome[] {
  type Row = {
    item: number
    outcome: EntryOutcome['outcome']
    entry_id: string | number | null
    balance: string | number | null
    alerts: number
    recharges: number
    cap: string | number | null
    spend_limit: LimitJson | string | null
  }
  const outcomes = new Array<EntryOutcome>(count)
  for (const row of rowsOf<Row>(result)) {
    const balance = row.balance == null ? null : Number(row.balance)
    outcomes[row.item] = {
      outcome: row.outcome,
      entryId: row.entry_id == null ? null : Number(row.entry_id),
      balance,
      alerts: Number(row.alerts),
      recharges: Number(row.recharges),
      ...(row.cap == null ? {} : { cap: Number(row.cap) }),
      ...(row.spend_limit == null ? {} : { spendLimit: refusingLimit(row.spend_limit) }),
    } as EntryOutcome
  }
  for (let i = 0; i < count; i++) if (!outcomes[i]) throw new Error(`ledger_apply gave no outcome for entry ${i}`)
  return outcomes
}

/** A spend limit as spend_limits_refusal names it; numbers may come as text (numeric, bigint). */
interface LimitJson {
  id: string
  unit: RefusingLimit['unit']
  amount: number | string
  period: RefusingLimit['period']
  used: number | string
  allowed: number | string
  resets_at: string
}

export function refusingLimit(json: LimitJson | string): RefusingLimit {
  const limit: LimitJson = typeof json === 'string' ? JSON.parse(json) : json
  return {
    id: limit.id,
    unit: limit.unit,
    amount: Number(limit.amount),
    period: limit.period,
    used: Number(limit.used),
    allowed: Number(limit.allowed),
    resetsAt: new Date(limit.resets_at),
  }
}

/** Deadlock or serialization failure: Postgres rolled the whole statement back, so running it again is safe. */
function isTransient(error: unknown): boolean {
  for (let e: unknown = error; e; e = (e as { cause?: unknown }).cause) {
    const code = (e as { code?: string }).code
    if (code === '40P01' || code === '40001') return true
  }
  return false
}

/** One entry: a batch of one. Returns what it did, or throws the refusal its outcome stands for. */
export async function applyEntry(db: Db | Tx, entry: EntryInput): Promise<EntryResult> {
  const [outcome] = await applyEntries(db, [entry])
  return entryResult(outcome, entry)
}

/** The one translation of an outcome into an answer: a replay answers like the first time; a refusal is thrown. */
export function entryResult(outcome: EntryOutcome, entry: EntryInput): EntryResult {
  switch (outcome.outcome) {
    case 'applied':
    case 'duplicate':
      return {
        entryId: outcome.entryId,
        balance: outcome.balance,
        alerts: outcome.alerts,
        recharges: outcome.recharges,
        duplicate: outcome.outcome === 'duplicate',
      }
    case 'conflict':
      throw new EventOfAnotherKey(entry.externalRef)
    case 'not_found':
      throw new KeyIdNotFound(entry.keyId)
    case 'revoked':
      throw new KeyRevoked(entry.keyId)
    case 'insufficient':
      throw new InsufficientBalance(entry.keyId)
    case 'invalid':
      throw new InvalidAmount(`${entry.type} of ${entry.amount}`)
    case 'expired':
      throw new KeyExpired()
    case 'out_of_scope':
      throw new KeyOutOfScope({ product: entry.product, model: entry.model })
    case 'over_daily_cap':
    case 'over_monthly_cap':
      throw new SpendCapReached(outcome.outcome === 'over_daily_cap' ? 'day' : 'month', outcome.cap ?? 0)
    case 'over_spend_limit':
      throw new SpendLimitReached(outcome.spendLimit!)
  }
}

export interface AuditMismatch {
  key_id: string
  balance: number
  entries_sum: number
}

/**
 * Invariant I1: every cached balance equals the sum of the entries that moved it (its key's own, and those of
 * keys drawing on it as a shared balance, which name it in `balance_key_id`). Returns the rows where it does not.
 */
export async function auditLedger(db: Db): Promise<AuditMismatch[]> {
  const rows = rowsOf<{ key_id: string; balance: string; entries_sum: string }>(
    await db.execute(sql`
      select k.id as key_id, k.balance, coalesce(s.total, 0) as entries_sum
      from api_keys k left join (
        select coalesce(balance_key_id, key_id) as account, sum(amount) as total from ledger_entries group by 1
      ) s on s.account = k.id
      where k.balance <> coalesce(s.total, 0)`),
  )
  return rows.map((r) => ({ key_id: r.key_id, balance: Number(r.balance), entries_sum: Number(r.entries_sum) }))
}
