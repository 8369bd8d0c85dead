import { eq, sql } from 'drizzle-orm'
import { premiumPriceId } from '#config'
import { apiKeys, autoRechargeAttempts, billingProfiles, emailOutbox, purchases } from '../db/schema'
import type { Db, Tx } from '../db/types'
import { shareAccountStatus } from './account-keys'
import { shareBalanceStatus } from './organisation-keys'
import { openIfBelow } from './auto-recharge'
import { settleDebts } from './debts'
import { applyEntry, type EntryResult } from './ledger'
import type { PurchaseRow } from './purchases'
import { recordAudit, type AuditBy } from './audit'
import { emitPaymentSucceeded } from './webhook-events'
import { invoiceLabel, numberInvoice } from './invoices'
import { displayKey } from './keys'
import { ownerEmailOf } from './owner-email'
import { receiptMail } from './receipt-mail'

/** What the payment service says about the money behind a purchase, read from the service, never from an event alone. */
export interface PaymentFacts {
  provider: 'stripe' | 'sandbox'
  paymentIntentId: string | null
  customerId: string | null
  email: string | null
  card: { paymentMethodId: string; brand: string; last4: string } | null
  receiptUrl: string | null
}

/** `mailed`: a receipt was queued in the outbox, to be sent once the credit committed. */
export type Fulfilment = { outcome: 'credited'; ledger: EntryResult; mailed: boolean } | { outcome: 'already' }

/**
 * Credits a paid purchase, once: whatever asks (the checkout's event, its asynchronous payment's event, the
 * buyer returning to the success page, a retried delivery), the purchase row is locked and its ledger entry
 * is `purchase:<purchase id>`, so the second asker finds it paid. In the same transaction the key becomes
 * paid (spec §6: its e-mail, the buyer's) and premium for the premium pack, its card is kept for
 * auto-recharge, auto-recharge starts if the checkout asked for it, debts from earlier refunds are paid from it first,
 * and the buyer's receipt is queued in the outbox (sent once this commits).
 */
export async function creditPurchase(
  db: Db,
  by: AuditBy,
  purchaseId: string,
  facts: PaymentFacts,
): Promise<Fulfilment> {
  return db.transaction(async (tx) => {
    const [purchase] = await tx.select().from(purchases).where(eq(purchases.id, purchaseId)).for('update')
    if (!purchase || purchase.status === 'paid') return { outcome: 'already' }
    const ledger = await applyEntry(tx, {
      keyId: purchase.keyId,
      amount: purchase.tokens,
      type: 'purchase',
      externalRef: `purchase:${purchase.id}`,
      product: 'tokens',
      model: purchase.priceId,
    })
    await tx
      .update(purchases)
      .set({
        status: 'paid',
        paidAt: sql`now()`,
        paymentIntentId: purchase.paymentIntentId ?? facts.paymentIntentId,
        email: purchase.email ?? facts.email,
        cardBrand: facts.card?.brand ?? null,
        cardLast4: facts.card?.last4 ?? null,
        receiptUrl: facts.receiptUrl,
      })
      .where(eq(purchases.id, purchase.id))
    await becomePaid(tx, purchase, facts)
    if (facts.card && facts.customerId) await keepCard(tx, purchase, facts)
    const opened = purchase.rechargeThreshold ? await startAutoRecharge(tx, purchase) : false
    if (purchase.kind === 'auto_recharge')
      await tx
        .update(autoRechargeAttempts)
        .set({ status: 'succeeded', finishedAt: sql`now()`, failure: null })
        .where(eq(autoRechargeAttempts.purchaseId, purchase.id))
    await settleDebts(tx, purchase.keyId)
    await recordAudit(tx, by, {
      action: purchase.kind === 'auto_recharge' ? 'recharge.credited' : 'purchase.credited',
      keyId: purchase.keyId,
      details: {
        purchase_id: purchase.id,
        tokens: purchase.tokens,
        amount: purchase.amount,
        currency: purchase.currency,
        auto_recharge_on: opened || Boolean(purchase.rechargeThreshold),
      },
    })
    await emitPaymentSucceeded(tx, purchase)
    const to = purchase.email ?? facts.email ?? (await ownerEmailOf(tx, purchase.keyId))
    const [key] = await tx.select().from(apiKeys).where(eq(apiKeys.id, purchase.keyId))
    // Last: the counter's row lock is held until commit, and nothing after it waits on another lock (the
    // receipt is a new row).
    const invoice = await numberInvoice(tx, purchase.id)
    if (to && key)
      await tx.insert(emailOutbox).values({
        to,
        ...receiptMail({
          invoice: invoiceLabel(invoice),
          tokens: purchase.tokens,
          amount: purchase.amount,
          currency: purchase.currency,
          card: facts.card ? { brand: facts.card.brand, last4: facts.card.last4 } : null,
          paidAt: new Date(),
          purchaseId: purchase.id,
          key: displayKey(key),
          autoRecharge: purchase.kind === 'auto_recharge',
          sandbox: facts.provider === 'sandbox',
        }),
        kind: 'purchase_receipt',
        meta: { key_id: purchase.keyId, purchase_id: purchase.id },
      })
    return {
      outcome: 'credited',
      ledger: { ...ledger, recharges: ledger.recharges + (opened ? 1 : 0) },
      mailed: Boolean(to && key),
    }
  })
}

/** Spec §6: a key with a purchase is paid (it has an e-mail); the premium pack makes it premium. */
async function becomePaid(tx: Tx, purchase: PurchaseRow, facts: PaymentFacts) {
  const email = purchase.email ?? facts.email
  const premium = purchase.priceId === premiumPriceId
  if (!email && !premium) return
  await tx
    .update(apiKeys)
    .set({
      ...(email ? { email: sql`coalesce(${apiKeys.email}, ${email})` } : {}),
      ...(premium ? { speedLevel: 2 } : {}),
    })
    .where(eq(apiKeys.id, purchase.keyId))
  const [owner] = await tx.select({ uid: apiKeys.ownerId }).from(apiKeys).where(eq(apiKeys.id, purchase.keyId))
  if (owner?.uid) await shareAccountStatus(tx, owner.uid)
  // An organisation's shared balance: its keys have the status it bought.
  await shareBalanceStatus(tx, purchase.keyId)
}

async function keepCard(tx: Tx, purchase: PurchaseRow, facts: PaymentFacts) {
  const card = {
    provider: facts.provider,
    customerId: facts.customerId,
    paymentMethodId: facts.card!.paymentMethodId,
    cardBrand: facts.card!.brand,
    cardLast4: facts.card!.last4,
    updatedAt: sql`now()`,
  }
  await tx
    .insert(billingProfiles)
    .values({ keyId: purchase.keyId, ...card })
    .onConflictDoUpdate({ target: billingProfiles.keyId, set: card })
}

/** The checkout asked for auto-recharge: on from now, and at once if this purchase still left the balance below it. */
async function startAutoRecharge(tx: Tx, purchase: PurchaseRow) {
  await tx
    .update(apiKeys)
    .set({ autoRecharge: true, autoRechargeThreshold: purchase.rechargeThreshold })
    .where(eq(apiKeys.id, purchase.keyId))
  await tx
    .update(billingProfiles)
    .set({ rechargePriceId: purchase.priceId, disabledReason: null })
    .where(eq(billingProfiles.keyId, purchase.keyId))
  return openIfBelow(tx, purchase.keyId)
}
