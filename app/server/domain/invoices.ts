import { eq, inArray, sql } from 'drizzle-orm'
import { rowsOf } from '../db/rows'
import { billingDetails, invoices } from '../db/schema'
import type { Db, Tx } from '../db/types'
import { recordAudit, type AuditBy } from './audit'
import { purchaseOfKey, type PurchaseRow } from './purchases'
import { PurchaseNotFound } from './refusals'

export type InvoiceRow = typeof invoices.$inferSelect
export type BillingDetailsRow = typeof billingDetails.$inferSelect

/**
 * The next invoice number, for a purchase being credited in `tx`. The counter is one row raised under its
 * lock, so concurrent credits take consecutive numbers, and a credit that rolls back takes its number back
 * with it: the numbers have no gaps, as invoices must not.
 */
export async function numberInvoice(tx: Tx, purchaseId: string): Promise<number> {
  const [row] = rowsOf<{ last_number: string | number }>(
    await tx.execute(sql`insert into invoice_counter (id, last_number) values (1, 1)
      on conflict (id) do update set last_number = invoice_counter.last_number + 1
      returning last_number`),
  )
  const number = Number(row.last_number)
  await tx.insert(invoices).values({ number, purchaseId })
  return number
}

/** How an invoice number reads on the document and in the dashboard. */
export const invoiceLabel = (number: number) => `INV-${String(number).padStart(6, '0')}`

export async function invoiceNumbersOf(db: Db, purchaseIds: string[]): Promise<Map<string, number>> {
  if (purchaseIds.length === 0) return new Map()
  const rows = await db
    .select({ purchaseId: invoices.purchaseId, number: invoices.number })
    .from(invoices)
    .where(inArray(invoices.purchaseId, purchaseIds))
  return new Map(rows.map((row) => [row.purchaseId, row.number]))
}

export async function billingDetailsOf(db: Db | Tx, keyId: string): Promise<BillingDetailsRow | undefined> {
  const [row] = await db.select().from(billingDetails).where(eq(billingDetails.keyId, keyId))
  return row
}

export async function saveBillingDetails(
  db: Db,
  by: AuditBy,
  keyId: string,
  details: { name: string; address: string; taxId: string | null },
): Promise<BillingDetailsRow> {
  return db.transaction(async (tx) => {
    const values = { ...details, updatedAt: sql`now()` }
    const [row] = await tx
      .insert(billingDetails)
      .values({ keyId, ...values })
      .onConflictDoUpdate({ target: billingDetails.keyId, set: values })
      .returning()
    await recordAudit(tx, by, { action: 'billing_details.changed', keyId })
    return row
  })
}

/**
 * A paid purchase of the key (or of a key transferred into it) with its invoice. The first time it is asked
 * for, the key's billing details are written onto it and fixed from then on: an issued invoice does not change.
 */
export async function issueInvoice(
  db: Db,
  keyId: string,
  purchaseId: string,
): Promise<{ purchase: PurchaseRow; invoice: InvoiceRow }> {
  const purchase = await purchaseOfKey(db, keyId, purchaseId)
  if (purchase.status !== 'paid') throw new PurchaseNotFound('this purchase is not paid, so it has no invoice')
  return db.transaction(async (tx) => {
    const [invoice] = await tx.select().from(invoices).where(eq(invoices.purchaseId, purchase.id)).for('update')
    if (!invoice) throw new PurchaseNotFound('this purchase has no invoice')
    if (invoice.detailsFixedAt) return { purchase, invoice }
    const details = await billingDetailsOf(tx, keyId)
    // No details yet: the document goes out without them and is fixed once they are entered.
    if (!details) return { purchase, invoice }
    const [fixed] = await tx
      .update(invoices)
      .set({
        billingName: details.name,
        billingAddress: details.address,
        billingTaxId: details.taxId,
        detailsFixedAt: sql`now()`,
      })
      .where(eq(invoices.number, invoice.number))
      .returning()
    return { purchase, invoice: fixed }
  })
}
