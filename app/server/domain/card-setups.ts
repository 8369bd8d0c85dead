import { and, asc, eq, gt, isNotNull, lt, sql } from 'drizzle-orm'
import { apiKeys, billingProfiles, cardSetups } from '../db/schema'
import type { Db } from '../db/types'
import { recordAudit, type AuditBy } from './audit'
import { openIfBelow } from './auto-recharge'

export type CardSetupRow = typeof cardSetups.$inferSelect

export async function createCardSetup(db: Db, row: typeof cardSetups.$inferInsert): Promise<CardSetupRow> {
  const [created] = await db.insert(cardSetups).values(row).returning()
  return created
}

export async function attachSetupSession(db: Db, id: string, sessionId: string): Promise<void> {
  await db.update(cardSetups).set({ checkoutSessionId: sessionId }).where(eq(cardSetups.id, id))
}

export async function cardSetupBySession(db: Db, sessionId: string): Promise<CardSetupRow | undefined> {
  const [row] = await db.select().from(cardSetups).where(eq(cardSetups.checkoutSessionId, sessionId))
  return row
}

export async function cardSetupById(db: Db, id: string): Promise<CardSetupRow | undefined> {
  if (!/^[0-9a-f-]{36}$/i.test(id)) return undefined
  const [row] = await db.select().from(cardSetups).where(eq(cardSetups.id, id))
  return row
}

/** What the payment service says the setup saved, read from the service, never from an event alone. */
export interface SavedCard {
  provider: 'stripe' | 'sandbox'
  customerId: string
  email: string | null
  card: { paymentMethodId: string; brand: string; last4: string }
}

export type SetupOutcome = { outcome: 'saved'; opened: boolean } | { outcome: 'already' }

/**
 * Saves the card a setup-mode checkout collected and turns auto-recharge on with the threshold and pack
 * chosen when it started, once: whatever asks (the session's completion, its setup intent's success, the
 * visitor back on the dashboard, a redelivery) locks the setup row, and the second finds it saved.
 */
export async function saveSetupCard(db: Db, by: AuditBy, setupId: string, saved: SavedCard): Promise<SetupOutcome> {
  return db.transaction(async (tx) => {
    const [setup] = await tx.select().from(cardSetups).where(eq(cardSetups.id, setupId)).for('update')
    if (!setup || setup.status !== 'pending') return { outcome: 'already' }
    const card = {
      provider: saved.provider,
      customerId: saved.customerId,
      paymentMethodId: saved.card.paymentMethodId,
      cardBrand: saved.card.brand,
      cardLast4: saved.card.last4,
      rechargePriceId: setup.priceId,
      disabledReason: null,
      updatedAt: sql`now()`,
      // Kept only where the key has no address of its own: mail about its charges goes there.
      ...(saved.email ? { email: saved.email } : {}),
    }
    await tx
      .insert(billingProfiles)
      .values({ keyId: setup.keyId, ...card })
      .onConflictDoUpdate({ target: billingProfiles.keyId, set: card })
    await tx
      .update(apiKeys)
      .set({ autoRecharge: true, autoRechargeThreshold: setup.threshold })
      .where(eq(apiKeys.id, setup.keyId))
    await tx
      .update(cardSetups)
      .set({ status: 'saved', savedAt: sql`now()` })
      .where(eq(cardSetups.id, setup.id))
    await recordAudit(tx, by, {
      action: 'card.saved',
      keyId: setup.keyId,
      details: { brand: saved.card.brand, last4: saved.card.last4 },
    })
    await recordAudit(tx, by, {
      action: 'auto_recharge.on',
      keyId: setup.keyId,
      details: { threshold: setup.threshold, price_id: setup.priceId },
    })
    return { outcome: 'saved', opened: await openIfBelow(tx, setup.keyId) }
  })
}

/** A setup whose session expired: it will save nothing. */
export async function expireCardSetup(db: Db, id: string): Promise<void> {
  await db.execute(sql`update card_setups set status = 'expired' where id = ${id}::uuid and status = 'pending'`)
}

/** Card setups still pending, as `pendingCheckouts` finds purchases: for the reconciler. */
export async function pendingCardSetups(
  db: Db,
  provider: CardSetupRow['provider'],
  { olderThanSeconds, limit }: { olderThanSeconds: number; limit: number },
): Promise<CardSetupRow[]> {
  return db
    .select()
    .from(cardSetups)
    .where(
      and(
        eq(cardSetups.status, 'pending'),
        eq(cardSetups.provider, provider),
        isNotNull(cardSetups.checkoutSessionId),
        lt(cardSetups.createdAt, sql`now() - make_interval(secs => ${olderThanSeconds})`),
        gt(cardSetups.createdAt, sql`now() - interval '2 days'`),
      ),
    )
    .orderBy(asc(cardSetups.createdAt))
    .limit(limit)
}
