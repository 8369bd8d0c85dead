import { eq, sql } from 'drizzle-orm'
import { rowsOf } from '../db/migrate'
import { apiKeys, billingDebts, purchases } from '../db/schema'
import type { Db } from '../db/types'
import { applyEntry } from './ledger'

export interface Reversal {
  purchaseId: string
  /**
   * Tokens taken back from the purchase in all once this event is applied (refunds report their running
   * total; a dispute, the disputed share): events that overlap or arrive out of order take nothing twice.
   */
  target: number
  /** The event behind it (`refund:<charge>:<amount refunded>`, `dispute:<id>`): each lands once. */
  externalRef: string
  reason: string
  /** A dispute also turns auto-recharge off: the card's owner contests a charge. */
  stopAutoRecharge: boolean
}

export type ReversalOutcome =
  { outcome: 'reversed'; debited: number; owed: number } | { outcome: 'already' | 'nothing' }

/**
 * Takes back a refunded or disputed purchase's tokens, once per event: what the key still holds is debited
 * (a `refund` entry), what it already spent is recorded as owed (settled from its next purchase), so the
 * balance never goes below zero. At most the purchase's tokens are ever taken back, however many events.
 */
export async function reversePurchase(db: Db, reversal: Reversal): Promise<ReversalOutcome> {
  return db.transaction(async (tx) => {
    const [purchase] = await tx.select().from(purchases).where(eq(purchases.id, reversal.purchaseId)).for('update')
    if (!purchase || purchase.status !== 'paid') return { outcome: 'nothing' }
    const seen = rowsOf(
      await tx.execute(sql`select 1 from ledger_entries where external_ref = ${reversal.externalRef}
        union all select 1 from billing_debts where external_ref = ${reversal.externalRef}`),
    )
    if (seen.length > 0) return { outcome: 'already' }
    const take = Math.min(reversal.target, purchase.tokens) - purchase.reversedTokens
    if (take <= 0) return { outcome: 'nothing' }
    const [key] = await tx.select().from(apiKeys).where(eq(apiKeys.id, purchase.keyId)).for('update')
    const debited = key.revokedAt ? 0 : Math.min(take, key.balance)
    if (debited > 0)
      await applyEntry(tx, {
        keyId: purchase.keyId,
        amount: -debited,
        type: 'refund',
        externalRef: reversal.externalRef,
        product: 'tokens',
        model: purchase.priceId,
      })
    const owed = take - debited
    if (owed > 0)
      await tx.insert(billingDebts).values({
        keyId: purchase.keyId,
        tokens: owed,
        reason: reversal.reason,
        externalRef: reversal.externalRef,
      })
    await tx
      .update(purchases)
      .set({ reversedTokens: sql`${purchases.reversedTokens} + ${take}` })
      .where(eq(purchases.id, purchase.id))
    if (reversal.stopAutoRecharge)
      await tx
        .update(apiKeys)
        .set({ autoRecharge: false, autoRechargeThreshold: null })
        .where(eq(apiKeys.id, purchase.keyId))
    return { outcome: 'reversed', debited, owed }
  })
}
