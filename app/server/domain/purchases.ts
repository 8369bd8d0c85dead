import { and, asc, desc, eq, gt, inArray, isNotNull, lt, ne, or, sql } from 'drizzle-orm'
import { purchases } from '../db/schema'
import type { Db, Tx } from '../db/types'
import { PurchaseNotFound } from './refusals'

export type PurchaseRow = typeof purchases.$inferSelect
export type NewPurchase = typeof purchases.$inferInsert

/** A purchase as the checkout starts it: pending, for the key that asked, at the pack's own price. */
export async function createPurchase(db: Db | Tx, purchase: NewPurchase): Promise<PurchaseRow> {
  const [row] = await db.insert(purchases).values(purchase).returning()
  return row
}

export async function attachCheckoutSession(db: Db, purchaseId: string, sessionId: string): Promise<void> {
  await db.update(purchases).set({ checkoutSessionId: sessionId }).where(eq(purchases.id, purchaseId))
}

export async function purchaseBySession(db: Db, sessionId: string): Promise<PurchaseRow | undefined> {
  const [row] = await db.select().from(purchases).where(eq(purchases.checkoutSessionId, sessionId))
  return row
}

export async function purchaseByIntent(db: Db, paymentIntentId: string): Promise<PurchaseRow | undefined> {
  const [row] = await db.select().from(purchases).where(eq(purchases.paymentIntentId, paymentIntentId))
  return row
}

export async function purchaseById(db: Db, id: string): Promise<PurchaseRow | undefined> {
  const [row] = await db.select().from(purchases).where(eq(purchases.id, id))
  return row
}

/** A purchase of this key; another key's, or none, reads as not found. */
export async function purchaseOfKey(db: Db, keyId: string, id: string): Promise<PurchaseRow> {
  const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
  const [row] = uuid.test(id)
    ? await db
        .select()
        .from(purchases)
        .where(and(eq(purchases.id, id), inArray(purchases.keyId, keysBehind(keyId))))
    : []
  if (!row) throw new PurchaseNotFound()
  return row
}

/**
 * The keys and every key whose balance was transferred into one of them, however many transfers back: purchase
 * history, receipts and the price of the tokens follow the bought tokens, as refunds do.
 */
export function keysBehind(keyIds: string | string[]) {
  const start = sql.join(
    [keyIds].flat().map((id) => sql`select ${id}::uuid`),
    sql` union `,
  )
  return sql`(with recursive behind(id) as (
      ${start}
      union
      select l.counterparty_key_id from ledger_entries l join behind b on l.key_id = b.id
       where l.type = 'transfer_in' and l.counterparty_key_id is not null)
    select id from behind)`
}

/** The key's purchases that went somewhere (paid, or failed on its way), with those of keys transferred into it, newest first. */
export async function purchasesOfKey(db: Db, keyId: string, limit = 50): Promise<PurchaseRow[]> {
  return db
    .select()
    .from(purchases)
    .where(
      and(
        inArray(purchases.keyId, keysBehind(keyId)),
        // drizzle's or() parenthesises; a raw `… or …` fragment here read as (owner and …) or …, everyone's.
        or(ne(purchases.status, 'pending'), isNotNull(purchases.paymentIntentId)),
      ),
    )
    .orderBy(desc(purchases.createdAt))
    .limit(limit)
}

/** A purchase that will not be paid: its session expired, or its payment failed. */
export async function closePurchase(db: Db, id: string, status: 'failed' | 'expired'): Promise<void> {
  await db
    .update(purchases)
    .set({ status })
    .where(and(eq(purchases.id, id), eq(purchases.status, 'pending')))
}

/**
 * Checkouts of `provider` still pending `olderThanSeconds` after they began and at most two days old (a
 * session expires within one), oldest first: those whose payment event may have been lost, for the reconciler.
 */
export async function pendingCheckouts(
  db: Db,
  provider: PurchaseRow['provider'],
  { olderThanSeconds, limit }: { olderThanSeconds: number; limit: number },
): Promise<PurchaseRow[]> {
  return db
    .select()
    .from(purchases)
    .where(
      and(
        eq(purchases.status, 'pending'),
        eq(purchases.provider, provider),
        isNotNull(purchases.checkoutSessionId),
        lt(purchases.createdAt, sql`now() - make_interval(secs => ${olderThanSeconds})`),
        gt(purchases.createdAt, sql`now() - interval '2 days'`),
      ),
    )
    .orderBy(asc(purchases.createdAt))
    .limit(limit)
}
