import { and, desc, eq, inArray, sql } from 'drizzle-orm'
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
 * The key and every key whose balance was transferred into it, however many transfers back: purchase history
 * and receipts follow the bought tokens, as refunds do.
 */
function keysBehind(keyId: string) {
  return sql`(with recursive behind(id) as (
      select ${keyId}::uuid
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
        sql`${purchases.status} <> 'pending' or ${purchases.paymentIntentId} is not null`,
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
