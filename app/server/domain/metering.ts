import { PgTransaction } from 'drizzle-orm/pg-core'
import type { Db, Tx } from '../db/types'
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

export interface ConsumeInput {
  keyId: string
  tokens: number
  usageEventId: string
  product: string
  model?: string
}

/** 128 entries keep a batch to a few milliseconds of database work; a second batch in flight lets other keys proceed while one waits for its WAL flush or a row lock. */
export const meteringBatchOptions = { maxItems: 128, maxInFlight: 2, blamesAnItem: isEntrysFault }

const batchers = new WeakMap<object, Batcher<EntryInput, EntryOutcome>>()

/** The group committer of one database handle (one per process for the app; tests and benchmarks bring their own). */
export function meteringBatcher(db: Db): Batcher<EntryInput, EntryOutcome> {
  let batcher = batchers.get(db)
  if (!batcher) batchers.set(db, (batcher = new Batcher((entries) => applyEntries(db, entries), meteringBatchOptions)))
  return batcher
}

/**
 * Consumption metered by a search service: idempotent per usage event id; 402 when the balance is short.
 * Concurrent calls are group-committed: many debits share one transaction and one WAL flush, and each
 * caller is answered only after that commit is durable. Inside a caller's transaction it is a batch of one.
 */
export async function consume(db: Db | Tx, input: ConsumeInput): Promise<EntryResult> {
  const entry = checkEntry(usageEntry(input))
  if (db instanceof PgTransaction) return applyEntry(db, entry)
  return entryResult(await meteringBatcher(db as Db).submit(entry), entry)
}

/** A usage event as a debit named after it, so it lands once however often it is sent. */
function usageEntry({ keyId, tokens, usageEventId, product, model }: ConsumeInput): EntryInput {
  return { keyId, amount: -tokens, type: 'consume', externalRef: `usage:${usageEventId}`, product, model }
}
