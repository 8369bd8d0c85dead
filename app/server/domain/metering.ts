import { sql } from 'drizzle-orm'
import { PgTransaction } from 'drizzle-orm/pg-core'
import { rowsOf } from '../db/rows'
import type { Db, Tx } from '../db/types'
import { recordLedgerBatch } from '../metrics'
import { Batcher } from './batcher'
import {
  applyEntries,
  applyEntry,
  checkEntry,
  entryResult,
  isEntrysFault,
  type EntryInput,
  type EntryOutcome,
  type EntryResult,
} from './ledger'
import { noteLimitReached } from './limit-reached'
import { SpendLimitReached } from './refusals'

export interface ConsumeInput {
  keyId: string
  tokens: number
  usageEventId: string
  product: string
  model?: string
}

/** 128 entries keep a batch to a few milliseconds of database work; a second batch in flight lets other keys proceed while one waits for its WAL flush or a row lock. */
export const meteringBatchOptions = {
  maxItems: 128,
  maxInFlight: 2,
  blamesAnItem: isEntrysFault,
  onBatch: recordLedgerBatch,
}

const batchers = new WeakMap<object, Batcher<EntryInput, EntryOutcome>>()

/** The group committer of one database handle (one per process for the app; tests and benchmarks bring their own). */
export function meteringBatcher(db: Db): Batcher<EntryInput, EntryOutcome> {
  let batcher = batchers.get(db)
  if (!batcher) batchers.set(db, (batcher = new Batcher((entries) => applyEntries(db, entries), meteringBatchOptions)))
  return batcher
}

/**
 * Consumption metered by a search service: idempotent per usage event id; 402 when the balance is short (a
 * spend limit's first refusal in its period also emits `limit.reached`).
 * Concurrent calls are group-committed: many debits share one transaction and one WAL flush, and each
 * caller is answered only after that commit is durable. Inside a caller's transaction it is a batch of one.
 */
export async function consume(
  db: Db | Tx,
  input: ConsumeInput,
  options: { tentative?: boolean } = {},
): Promise<EntryResult> {
  const entry = checkEntry(usageEntry(input))
  try {
    if (db instanceof PgTransaction) return await applyEntry(db, entry)
    return entryResult(await meteringBatcher(db as Db).submit(entry), entry)
  } catch (error) {
    // A tentative debit (a generous reservation, tried again smaller) reached no limit the caller will hear of;
    // inside a caller's transaction the refusal rolls it back, so that caller notes the limit after it.
    if (error instanceof SpendLimitReached && !options.tentative && !(db instanceof PgTransaction))
      await noteLimitReached(db, input.keyId, error.limit)
    throw error
  }
}

/** A usage event as a debit named after it, so it lands once however often it is sent. */
function usageEntry({ keyId, tokens, usageEventId, product, model }: ConsumeInput): EntryInput {
  return { keyId, amount: -tokens, type: 'consume', externalRef: `usage:${usageEventId}`, product, model }
}

/** The ledger name of the credit that gives back a usage event's unused or unanswered tokens. */
export const usageReversalRef = (usageEventId: string) => `usage-reversal:${usageEventId}`

/**
 * How long a request id stays spent: a metered request sent again with the same `X-Request-Id` within this
 * window is refused (409) instead of computed; after it, the id starts a new request.
 */
export const REQUEST_ID_WINDOW_HOURS = 24

/**
 * Whether a usage event's debit stands for a request that was answered: recorded within the request-id
 * window and not given back (a request whose computation failed has its tokens returned, and may be sent
 * again under the same id).
 */
export async function usageAnswered(db: Db, usageEventId: string): Promise<boolean> {
  const [row] = rowsOf<{ answered: boolean }>(
    await db.execute(sql`select exists (
      select 1 from ledger_entries d
      where d.external_ref = ${`usage:${usageEventId}`}
        and d.created_at > now() - make_interval(hours => ${REQUEST_ID_WINDOW_HOURS})
        and not exists (select 1 from ledger_entries r where r.external_ref = ${usageReversalRef(usageEventId)})
    ) as answered`),
  )
  return Boolean(row?.answered)
}
