import { and, asc, eq, notInArray, sql } from 'drizzle-orm'
import { constants } from '#config'
import type { BalanceNotification } from '~/contracts/billing'
import { balanceNotifications } from '../db/schema'
import { rowsOf } from '../db/rows'
import type { Db } from '../db/types'
import { InvalidThresholds, KeyIdNotFound } from './refusals'
import { recordAudit, type AuditBy } from './audit'

export async function getBalanceNotification(db: Db, keyId: string): Promise<BalanceNotification> {
  const rows = await db
    .select()
    .from(balanceNotifications)
    .where(eq(balanceNotifications.keyId, keyId))
    .orderBy(asc(balanceNotifications.threshold))
  return {
    thresholds: rows.map((r) => r.threshold),
    email: rows[0]?.email ?? null,
    armed: Object.fromEntries(rows.map((r) => [r.threshold, r.armed])),
  }
}

/**
 * Replaces a key's alerts. A threshold already above the balance starts disarmed: it fires only on a
 * downward crossing, after a credit has lifted the balance back to it. Kept thresholds keep their state
 * (the rule already holds for them, so settling changes only the new ones).
 */
export async function setBalanceNotification(
  db: Db,
  by: AuditBy,
  keyId: string,
  thresholds: number[],
  email: string,
): Promise<BalanceNotification> {
  const unique = [...new Set(thresholds)].sort((a, b) => a - b)
  if (unique.length > constants.maxBalanceThresholds) throw new InvalidThresholds()
  await db.transaction(async (tx) => {
    // Locking the key serialises concurrent replacements and orders them against debits' alert checks.
    const [key] = rowsOf<{ balance: string }>(
      await tx.execute(sql`select balance from api_keys where id = ${keyId}::uuid for update`),
    )
    if (!key) throw new KeyIdNotFound(keyId)
    const ofKey = eq(balanceNotifications.keyId, keyId)
    await tx
      .delete(balanceNotifications)
      .where(unique.length ? and(ofKey, notInArray(balanceNotifications.threshold, unique)) : ofKey)
    for (const threshold of unique) {
      await tx
        .insert(balanceNotifications)
        .values({ keyId, threshold, email, armed: false })
        .onConflictDoUpdate({ target: [balanceNotifications.keyId, balanceNotifications.threshold], set: { email } })
    }
    // New thresholds start disarmed; the ledger's own alert rule arms those the balance already reaches. No mail: nothing was crossed.
    await tx.execute(sql`select ledger_settle_alerts(${keyId}::uuid, ${key.balance}::bigint, false, null)`)
    await recordAudit(tx, by, { action: 'alerts.changed', keyId, details: { thresholds: unique.join(' ') } })
  })
  return getBalanceNotification(db, keyId)
}

export async function deleteBalanceNotification(db: Db, by: AuditBy, keyId: string): Promise<number> {
  return db.transaction(async (tx) => {
    const rows = await tx
      .delete(balanceNotifications)
      .where(eq(balanceNotifications.keyId, keyId))
      .returning({ id: balanceNotifications.id })
    if (rows.length > 0) await recordAudit(tx, by, { action: 'alerts.removed', keyId })
    return rows.length
  })
}
