import { sql } from 'drizzle-orm'
import { PgTransaction } from 'drizzle-orm/pg-core'
import { brand } from '../../../app.config'
import { rowsOf } from '../db/migrate'
import type { Db, Tx } from '../db/types'
import { EventOfAnotherKey, InsufficientBalance, InvalidAmount, KeyIdNotFound, KeyRevoked, UnstorableText } from './refusals'
import { Batcher } from './batcher'
import { alertMail, alertsPageUrl, type EntryResult } from './ledger'
import { runStatement } from './statement'

export interface ConsumeInput {
  keyId: string
  tokens: number
  usageEventId: string
  product: string
  model?: string
}

export interface MeterItem {
  i: number
  k: string
  n: number
  r: string
  p: string
  m: string | null
}

export type MeterOutcome =
  | { outcome: 'applied' | 'duplicate'; entryId: number; balance: number; alerts: number }
  | { outcome: 'conflict' | 'not_found' | 'revoked' | 'insufficient' | 'invalid'; entryId: null; balance: number | null; alerts: number }

/** 128 items keep a batch to a few milliseconds of database work; a second batch in flight lets other keys proceed while one waits for its WAL flush or a row lock. */
export const meteringBatchOptions = { maxItems: 128, maxInFlight: 2 }
const RETRIES = 3
const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

const batchers = new WeakMap<object, Batcher<MeterItem, MeterOutcome>>()

/** The group committer of one database handle (one per process for the app; tests and benchmarks bring their own). */
export function meteringBatcher(db: Db): Batcher<MeterItem, MeterOutcome> {
  let batcher = batchers.get(db)
  if (!batcher) batchers.set(db, (batcher = new Batcher((items) => applyBatch(db, items), meteringBatchOptions)))
  return batcher
}

/**
 * Consumption metered by a search service: idempotent per usage event id; 402 when the balance is short.
 * Concurrent calls are group-committed: many debits share one transaction and one WAL flush, and each
 * caller is answered only after that commit is durable.
 */
export async function consume(db: Db | Tx, input: ConsumeInput): Promise<EntryResult> {
  const item = meterItem(input)
  const outcome = db instanceof PgTransaction ? (await applyBatch(db, [item]))[0] : await meteringBatcher(db as Db).submit(item)
  return resultOf(outcome)
}

/** Validated here, not in SQL: one malformed item must not fail the batch its neighbours share. */
function meterItem({ keyId, tokens, usageEventId, product, model }: ConsumeInput): MeterItem {
  if (!Number.isSafeInteger(tokens) || tokens <= 0) throw new InvalidAmount()
  if (!uuidPattern.test(keyId)) throw new KeyIdNotFound()
  for (const text of [usageEventId, product, model ?? '']) if (typeof text !== 'string' || text.includes('\0')) throw new UnstorableText()
  return { i: 0, k: keyId, n: tokens, r: `usage:${usageEventId}`, p: product, m: model ?? null }
}

function resultOf(o: MeterOutcome): EntryResult {
  switch (o.outcome) {
    case 'applied':
    case 'duplicate':
      return { entryId: o.entryId, balance: o.balance, alerts: o.alerts, duplicate: o.outcome === 'duplicate' }
    case 'conflict':
      throw new EventOfAnotherKey()
    case 'not_found':
      throw new KeyIdNotFound()
    case 'revoked':
      throw new KeyRevoked()
    case 'insufficient':
      throw new InsufficientBalance()
    default:
      throw new InvalidAmount()
  }
}

/** One statement, so one transaction and one commit for the whole batch; retried whole when Postgres breaks a deadlock. */
export async function applyBatch(db: Db | Tx, items: MeterItem[]): Promise<MeterOutcome[]> {
  const numbered = items.map((item, i) => ({ ...item, i }))
  const query = sql`select item, outcome, entry_id, new_balance, alerts
    from meter_consume_batch(${JSON.stringify(numbered)}::jsonb, ${alertMail.subject}::text, ${alertMail.body}::text, ${brand.name}::text, ${alertsPageUrl()}::text)`
  for (let attempt = 1; ; attempt++) {
    try {
      const rows = rowsOf<{ item: number; outcome: MeterOutcome['outcome']; entry_id: string | number | null; new_balance: string | number | null; alerts: number }>(
        await runStatement(db, query),
      )
      const outcomes = new Array<MeterOutcome>(items.length)
      for (const row of rows) {
        const balance = row.new_balance == null ? null : Number(row.new_balance)
        outcomes[row.item] = { outcome: row.outcome, entryId: row.entry_id == null ? null : Number(row.entry_id), balance, alerts: Number(row.alerts) } as MeterOutcome
      }
      for (let i = 0; i < items.length; i++) if (!outcomes[i]) throw new Error(`metering batch gave no outcome for item ${i}`)
      return outcomes
    } catch (error) {
      if (attempt >= RETRIES || !isTransient(error)) throw error
    }
  }
}

/** Deadlock or serialization failure: Postgres rolled the whole batch back, so running it again is safe. */
function isTransient(error: unknown): boolean {
  for (let e: unknown = error; e; e = (e as { cause?: unknown }).cause) {
    const code = (e as { code?: string }).code
    if (code === '40P01' || code === '40001') return true
  }
  return false
}
