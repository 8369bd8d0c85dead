import { and, eq, inArray, sql } from 'drizzle-orm'
import { rowsOf } from '../db/rows'
import { apiKeys, autoRechargeAttempts, billingProfiles, emailOutbox } from '../db/schema'
import type { Db, Tx } from '../db/types'
import { displayKey } from './keys'
import { ownerEmailOf } from './owner-email'
import { createPurchase } from './purchases'
import { packByPriceId } from './packs'
import { AutoRechargeRefused } from './refusals'
import { recordAudit, type AuditBy } from './audit'

export type AttemptRow = typeof autoRechargeAttempts.$inferSelect
export type BillingProfile = typeof billingProfiles.$inferSelect

export async function billingProfileOf(db: Db | Tx, keyId: string): Promise<BillingProfile | undefined> {
  const [row] = await db.select().from(billingProfiles).where(eq(billingProfiles.keyId, keyId))
  return row
}

/** The key's latest attempt, for the dashboard's status line. */
export async function latestAttempt(db: Db, keyId: string): Promise<AttemptRow | undefined> {
  const [row] = await db
    .select()
    .from(autoRechargeAttempts)
    .where(eq(autoRechargeAttempts.keyId, keyId))
    .orderBy(sql`${autoRechargeAttempts.createdAt} desc`)
    .limit(1)
  return row
}

/** Opens an attempt now if the balance is already below the threshold (test 21): at most one is ever open. */
export async function openIfBelow(tx: Tx, keyId: string): Promise<boolean> {
  const opened = rowsOf(
    await tx.execute(sql`insert into auto_recharge_attempts (key_id)
      select id from api_keys where id = ${keyId}::uuid and auto_recharge and balance < auto_recharge_threshold
      on conflict do nothing returning id`),
  )
  return opened.length > 0
}

/**
 * Turns auto-recharge on (or changes it) for a paid key with a saved card: buy `priceId` whenever a
 * debit takes the balance below `threshold`. True when the balance is already below it, so an attempt opened.
 */
export async function enableAutoRecharge(
  db: Db,
  by: AuditBy,
  keyId: string,
  threshold: number,
  priceId: string,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const profile = await billingProfileOf(tx, keyId)
    if (!profile?.paymentMethodId)
      throw new AutoRechargeRefused(
        'Auto-recharge needs a card saved by a purchase of this key: buy a pack with auto-recharge first',
      )
    if (!packByPriceId(priceId)) throw new AutoRechargeRefused('That pack is not on offer')
    await tx.update(apiKeys).set({ autoRecharge: true, autoRechargeThreshold: threshold }).where(eq(apiKeys.id, keyId))
    await tx
      .update(billingProfiles)
      .set({ rechargePriceId: priceId, disabledReason: null, updatedAt: sql`now()` })
      .where(eq(billingProfiles.keyId, keyId))
    await recordAudit(tx, by, { action: 'auto_recharge.on', keyId, details: { threshold, price_id: priceId } })
    return openIfBelow(tx, keyId)
  })
}

/** Changes the threshold of a key whose auto-recharge is on. */
export async function setRechargeThreshold(db: Db, by: AuditBy, keyId: string, threshold: number): Promise<boolean> {
  return db.transaction(async (tx) => {
    const changed = await tx
      .update(apiKeys)
      .set({ autoRechargeThreshold: threshold })
      .where(and(eq(apiKeys.id, keyId), eq(apiKeys.autoRecharge, true)))
      .returning({ id: apiKeys.id })
    if (changed.length === 0) throw new AutoRechargeRefused('Auto-recharge is off for this key: turn it on first')
    await recordAudit(tx, by, { action: 'auto_recharge.threshold', keyId, details: { threshold } })
    return openIfBelow(tx, keyId)
  })
}

/** Turns auto-recharge off; an attempt not yet charging is dropped (one already charging finishes). */
export async function disableAutoRecharge(db: Db, by: AuditBy, keyId: string): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.update(apiKeys).set({ autoRecharge: false, autoRechargeThreshold: null }).where(eq(apiKeys.id, keyId))
    await tx
      .update(autoRechargeAttempts)
      .set({ status: 'skipped', failure: 'auto-recharge turned off', finishedAt: sql`now()` })
      .where(and(eq(autoRechargeAttempts.keyId, keyId), eq(autoRechargeAttempts.status, 'pending')))
    await recordAudit(tx, by, { action: 'auto_recharge.off', keyId })
  })
}

/**
 * Takes the next attempt due (open and not leased, or leased past its time: a worker died mid-charge) and
 * leases it. SKIP LOCKED: instances claim different attempts and never wait for each other.
 */
export async function claimAttempt(db: Db, leaseSeconds: number): Promise<AttemptRow | undefined> {
  const rows = rowsOf<{ id: string }>(
    await db.execute(sql`
      update auto_recharge_attempts set status = 'charging', tries = tries + 1,
        next_try_at = now() + make_interval(secs => ${leaseSeconds})
      where id = (select id from auto_recharge_attempts
        where status in ('pending', 'charging') and next_try_at <= now()
        order by next_try_at limit 1 for update skip locked)
      returning id`),
  )
  if (rows.length === 0) return undefined
  const [row] = await db.select().from(autoRechargeAttempts).where(eq(autoRechargeAttempts.id, rows[0].id))
  return row
}

export interface Caps {
  perDay: number
  perMonth: number
}

/** What to charge for a claimed attempt, or why not (then the attempt is closed). */
export type ChargePlan =
  | { kind: 'charge'; purchaseId: string; customerId: string; paymentMethodId: string; priceId: string }
  | { kind: 'skip'; reason: string }
  | { kind: 'refuse'; reason: string }

/**
 * Decides a claimed attempt under the key's row lock, so the checks and the purchase it makes are one
 * step: the balance is read again (a credit may have lifted it meanwhile), auto-recharge must still be on
 * with a saved card, and the daily and monthly caps are counted with this attempt's own charge included.
 * A retried attempt keeps its purchase, so its charge keeps its idempotency key.
 */
export async function planCharge(db: Db, attempt: AttemptRow, caps: Caps): Promise<ChargePlan> {
  return db.transaction(async (tx) => {
    const [key] = await tx.select().from(apiKeys).where(eq(apiKeys.id, attempt.keyId)).for('update')
    const profile = await billingProfileOf(tx, attempt.keyId)
    const pack = profile?.rechargePriceId ? packByPriceId(profile.rechargePriceId) : undefined
    if (!key || key.revokedAt) return { kind: 'skip', reason: 'the key was revoked' }
    if (!key.autoRecharge || key.autoRechargeThreshold === null) return { kind: 'skip', reason: 'auto-recharge is off' }
    if (!attempt.purchaseId && key.balance >= key.autoRechargeThreshold)
      return { kind: 'skip', reason: 'the balance is above the threshold again' }
    if (!profile?.customerId || !profile.paymentMethodId || !pack)
      return { kind: 'refuse', reason: 'no saved card to charge' }
    if (attempt.purchaseId)
      return {
        kind: 'charge',
        purchaseId: attempt.purchaseId,
        customerId: profile.customerId,
        paymentMethodId: profile.paymentMethodId,
        priceId: pack.price_id,
      }
    const [counts] = rowsOf<{ day: number; month: number }>(
      await tx.execute(sql`select
        count(*) filter (where created_at > now() - interval '1 day')::int as day,
        count(*) filter (where created_at > now() - interval '30 days')::int as month
        from auto_recharge_attempts where key_id = ${attempt.keyId}::uuid and id <> ${attempt.id}::uuid
          and purchase_id is not null and status in ('charging', 'succeeded')`),
    )
    if (counts.day >= caps.perDay)
      return { kind: 'refuse', reason: `the daily limit of ${caps.perDay} recharges was reached` }
    if (counts.month >= caps.perMonth)
      return { kind: 'refuse', reason: `the monthly limit of ${caps.perMonth} recharges was reached` }
    const purchase = await createPurchase(tx, {
      keyId: attempt.keyId,
      provider: profile.provider,
      kind: 'auto_recharge',
      priceId: pack.price_id,
      tokens: pack.token_quantity,
      amount: Math.round(pack.price * 100),
      currency: pack.currency,
      // A card saved alone brought an address: the first recharge paid makes the key paid with it.
      email: key.email ?? profile.email,
    })
    await tx
      .update(autoRechargeAttempts)
      .set({ purchaseId: purchase.id, priceId: pack.price_id })
      .where(eq(autoRechargeAttempts.id, attempt.id))
    return {
      kind: 'charge',
      purchaseId: purchase.id,
      customerId: profile.customerId,
      paymentMethodId: profile.paymentMethodId,
      priceId: pack.price_id,
    }
  })
}

export async function recordCharge(db: Db, attemptId: string, purchaseId: string, paymentIntentId: string) {
  // Purchase row first, then the attempt: the order crediting the purchase locks them in, so the two never deadlock.
  await db.transaction(async (tx) => {
    await tx.execute(sql`update purchases set payment_intent_id = ${paymentIntentId}
      where id = ${purchaseId}::uuid and payment_intent_id is null`)
    await tx.update(autoRechargeAttempts).set({ paymentIntentId }).where(eq(autoRechargeAttempts.id, attemptId))
  })
}

/** An attempt that needs nothing charged (skipped), now or ever. */
export async function skipAttempt(db: Db, attemptId: string, reason: string) {
  await db
    .update(autoRechargeAttempts)
    .set({ status: 'skipped', failure: reason, finishedAt: sql`now()` })
    .where(and(eq(autoRechargeAttempts.id, attemptId), inArray(autoRechargeAttempts.status, ['pending', 'charging'])))
}

/** The service could not be reached: try the same charge again later, backing off (30 s doubling to an hour). */
export async function retryAttemptLater(db: Db, attempt: AttemptRow) {
  const seconds = Math.min(3600, 30 * 2 ** Math.max(0, attempt.tries - 1))
  await db
    .update(autoRechargeAttempts)
    .set({ nextTryAt: sql`now() + make_interval(secs => ${seconds})` })
    .where(eq(autoRechargeAttempts.id, attempt.id))
}

export interface RechargeNotice {
  subject: string
  /** The mail's body, from why the charge failed and the key as its holder sees it (`lds_…1234`). */
  text: (reason: string, key: string) => string
}

/**
 * A charge that cannot succeed without the cardholder (declined, needs authentication, over a cap, no card):
 * the attempt fails, auto-recharge turns off (a machine must not keep trying a card), and the owner is told,
 * all in one transaction, so the notice goes exactly once.
 */
export async function failAttempt(db: Db, attempt: AttemptRow, reason: string, notice: RechargeNotice) {
  await db.transaction(async (tx) => {
    const failed = await tx
      .update(autoRechargeAttempts)
      .set({ status: 'failed', failure: reason, finishedAt: sql`now()` })
      .where(
        and(eq(autoRechargeAttempts.id, attempt.id), inArray(autoRechargeAttempts.status, ['pending', 'charging'])),
      )
      .returning({ id: autoRechargeAttempts.id })
    if (failed.length === 0) return
    await tx
      .update(apiKeys)
      .set({ autoRecharge: false, autoRechargeThreshold: null })
      .where(eq(apiKeys.id, attempt.keyId))
    await tx
      .update(billingProfiles)
      .set({ disabledReason: reason, updatedAt: sql`now()` })
      .where(eq(billingProfiles.keyId, attempt.keyId))
    if (attempt.purchaseId)
      await tx.execute(
        sql`update purchases set status = 'failed' where id = ${attempt.purchaseId}::uuid and status = 'pending'`,
      )
    const to = await ownerEmailOf(tx, attempt.keyId)
    const [key] = await tx.select().from(apiKeys).where(eq(apiKeys.id, attempt.keyId))
    if (to && key)
      await tx.insert(emailOutbox).values({
        to,
        subject: notice.subject,
        text: notice.text(reason, displayKey(key)),
        kind: 'auto_recharge_failed',
        meta: { key_id: attempt.keyId, attempt_id: attempt.id },
      })
  })
}

/** The open attempt a payment belongs to (by the attempt id the charge carried). */
export async function attemptById(db: Db, id: string): Promise<AttemptRow | undefined> {
  if (!/^[0-9a-f-]{36}$/i.test(id)) return undefined
  const [row] = await db.select().from(autoRechargeAttempts).where(eq(autoRechargeAttempts.id, id))
  return row
}
