import { eq, inArray, sql } from 'drizzle-orm'
import { rowsOf } from '../db/rows'
import { apiKeys, billingDebts, emailOutbox, purchases } from '../db/schema'
import type { Db, Tx } from '../db/types'
import { currentHolder } from './debts'
import { displayKey } from './keys'
import { applyEntry } from './ledger'
import { ownerEmailOf } from './owner-email'
import { reversalMail } from './reversal-mail'
import { recordAudit, type AuditBy } from './audit'

export interface Reversal {
  purchaseId: string
  /**
   * Tokens taken back from the purchase in all once this event is applied (refunds report their running
   * total; a dispute, the disputed share): events that overlap or arrive out of order take nothing twice.
   */
  target: number
  /** The event behind it (`refund:<charge>:<amount refunded>`, `dispute:<id>`): each lands once. */
  externalRef: string
  reason: 'refund' | 'dispute'
  /** A dispute also turns auto-recharge off: the card's owner contests a charge. */
  stopAutoRecharge: boolean
}

export type ReversalOutcome =
  { outcome: 'reversed'; holderId: string; debited: number; owed: number } | { outcome: 'already' | 'nothing' }

/** A transfer moved the tokens on between finding their holder and locking it. */
class HolderMoved extends Error {}

const ATTEMPTS = 5

/**
 * Takes back a refunded or disputed purchase's tokens, once per event, from the key that holds them now:
 * the purchase's key while it is live, else the end of the chain of transfers its balance went through
 * (`currentHolder`). What that key still has is debited (a `refund` entry); what it already spent is
 * recorded as its debt (paid from its next credits, `settleDebts`), so no balance goes below zero. Its owner
 * is told by e-mail. At most the purchase's tokens are ever taken back, however many events.
 */
export async function reversePurchase(db: Db, by: AuditBy, reversal: Reversal): Promise<ReversalOutcome> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction((tx) => reverseOnce(tx, by, reversal))
    } catch (error) {
      // Rolled back, so every lock is let go: look for the holder again from the purchase's key.
      if (!(error instanceof HolderMoved) || attempt >= ATTEMPTS) throw error
    }
  }
}

async function reverseOnce(tx: Tx, by: AuditBy, reversal: Reversal): Promise<ReversalOutcome> {
  const [purchase] = await tx.select().from(purchases).where(eq(purchases.id, reversal.purchaseId)).for('update')
  if (!purchase || purchase.status !== 'paid') return { outcome: 'nothing' }
  const seen = rowsOf(
    await tx.execute(sql`select 1 from ledger_entries where external_ref = ${reversal.externalRef}
      union all select 1 from billing_debts where external_ref = ${reversal.externalRef}`),
  )
  if (seen.length > 0) return { outcome: 'already' }
  const take = Math.min(reversal.target, purchase.tokens) - purchase.reversedTokens
  if (take <= 0) return { outcome: 'nothing' }

  const holderId = await currentHolder(tx, purchase.keyId)
  // In id order, as transfers lock their two keys, so a reversal and a transfer never deadlock.
  const locked = await tx
    .select()
    .from(apiKeys)
    .where(inArray(apiKeys.id, [purchase.keyId, holderId]))
    .orderBy(apiKeys.id)
    .for('update')
  const holder = locked.find((key) => key.id === holderId)!
  if (holder.revokedAt && (await currentHolder(tx, holderId)) !== holderId) throw new HolderMoved()

  const transferred = holderId !== purchase.keyId
  const debited = Math.min(take, holder.balance)
  let balance = holder.balance
  if (debited > 0)
    ({ balance } = await applyEntry(tx, {
      keyId: holderId,
      amount: -debited,
      type: 'refund',
      externalRef: reversal.externalRef,
      product: 'tokens',
      model: purchase.priceId,
      ...(transferred ? { counterpartyKeyId: purchase.keyId } : {}),
    }))
  const owed = take - debited
  if (owed > 0)
    await tx.insert(billingDebts).values({
      keyId: holderId,
      tokens: owed,
      reason: reversal.reason,
      externalRef: reversal.externalRef,
    })
  await tx
    .update(purchases)
    .set({ reversedTokens: sql`${purchases.reversedTokens} + ${take}` })
    .where(eq(purchases.id, purchase.id))
  await recordAudit(tx, by, {
    action: reversal.reason === 'dispute' ? 'purchase.disputed' : 'purchase.refunded',
    keyId: holderId,
    details: { purchase_id: purchase.id, tokens_taken: debited, tokens_owed: owed },
  })
  if (reversal.stopAutoRecharge)
    await tx
      .update(apiKeys)
      .set({ autoRecharge: false, autoRechargeThreshold: null })
      .where(inArray(apiKeys.id, [purchase.keyId, holderId]))

  const to = await ownerEmailOf(tx, holderId)
  if (to) {
    const mail = reversalMail({
      reason: reversal.reason,
      key: displayKey(holder),
      transferred,
      purchaseTokens: purchase.tokens,
      taken: take,
      debited,
      owed,
      balance,
    })
    await tx.insert(emailOutbox).values({
      to,
      ...mail,
      kind: 'purchase_reversed',
      meta: { key_id: holderId, purchase_id: purchase.id, event: reversal.externalRef },
    })
  }
  return { outcome: 'reversed', holderId, debited, owed }
}
