import { and, desc, eq, lt, sql } from 'drizzle-orm'
import { rowsOf } from '../db/rows'
import { ledgerEntries } from '../db/schema'
import type { ConsumptionTotals, Transaction, TransactionPage } from '~/contracts/billing'
import { transactionReasonOf } from '~/contracts/ledger'
import { encodeCursor } from '~/lib/cursor'
import type { Db } from '../db/types'

type Entry = typeof ledgerEntries.$inferSelect

/** A transaction record as the dashboard reads it; event references and other keys stay internal. */
export function transactionRecord(entry: Entry): Transaction {
  return {
    id: String(entry.id),
    type: entry.type,
    amount: entry.amount,
    balance_after: entry.balanceAfter,
    product: entry.product,
    model: entry.model,
    created_at: entry.createdAt.toISOString(),
    reason: transactionReasonOf(entry.externalRef, entry.product),
  }
}

export async function latestTransaction(db: Db, keyId: string): Promise<Transaction | null> {
  const [entry] = await db
    .select()
    .from(ledgerEntries)
    .where(eq(ledgerEntries.keyId, keyId))
    .orderBy(desc(ledgerEntries.id))
    .limit(1)
  return entry ? transactionRecord(entry) : null
}

/** One entry of this key; another key's entry is simply not found. */
export async function findTransaction(db: Db, keyId: string, id: number): Promise<Transaction | null> {
  const [entry] = await db
    .select()
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.keyId, keyId), eq(ledgerEntries.id, id)))
    .limit(1)
  return entry ? transactionRecord(entry) : null
}

/** Newest first; `next_cursor` is null on the last page. */
export async function paginatedTransactions(
  db: Db,
  keyId: string,
  numRecords: number,
  before?: number,
): Promise<TransactionPage> {
  const where =
    before === undefined
      ? eq(ledgerEntries.keyId, keyId)
      : and(eq(ledgerEntries.keyId, keyId), lt(ledgerEntries.id, before))
  const rows = await db
    .select()
    .from(ledgerEntries)
    .where(where)
    .orderBy(desc(ledgerEntries.id))
    .limit(numRecords + 1)
  const page = rows.slice(0, numRecords)
  return {
    transactions: page.map(transactionRecord),
    next_cursor: rows.length > numRecords ? encodeCursor(page[page.length - 1].id) : null,
  }
}

/**
 * Tokens consumed in [start, end) (UTC days), per product and per day for the usage chart, and per product
 * and model. A request the search APIs charged and then gave back (it could not be answered) is not usage.
 */
export async function totalConsumption(db: Db, keyId: string, start: Date, end: Date): Promise<ConsumptionTotals> {
  const rows = rowsOf<{ day: string; product: string | null; model: string | null; tokens: string | number }>(
    await db.execute(sql`
      select to_char(created_at at time zone 'UTC', 'YYYY-MM-DD') as day, product, model, -sum(amount) as tokens
      from ledger_entries
      where key_id = ${keyId}::uuid
        and (type = 'consume' or (type = 'adjustment' and external_ref like 'usage-reversal:%'))
        and created_at >= ${start.toISOString()}::timestamptz and created_at < ${end.toISOString()}::timestamptz
      group by 1, 2, 3 order by 1, 2, 3`),
  )
  const byProduct: Record<string, number> = {}
  const byModel = new Map<string, ConsumptionTotals['by_model'][number]>()
  const byDay = new Map<string, ConsumptionTotals['by_day'][number]>()
  let total = 0
  for (const row of rows) {
    const product = row.product ?? 'other'
    const tokens = Number(row.tokens)
    if (tokens === 0) continue
    total += tokens
    const modelKey = `${product}\u0000${row.model ?? ''}`
    const model = byModel.get(modelKey) ?? { product, model: row.model, tokens: 0 }
    model.tokens += tokens
    byModel.set(modelKey, model)
    byProduct[product] = (byProduct[product] ?? 0) + tokens
    const day = byDay.get(row.day) ?? { date: row.day, total_tokens: 0, by_product: {} }
    day.total_tokens += tokens
    day.by_product[product] = (day.by_product[product] ?? 0) + tokens
    byDay.set(row.day, day)
  }
  return {
    start: start.toISOString(),
    end: end.toISOString(),
    total_tokens: total,
    by_product: byProduct,
    by_day: [...byDay.values()],
    by_model: [...byModel.values()].filter((m) => m.tokens !== 0).sort((a, b) => b.tokens - a.tokens),
  }
}
