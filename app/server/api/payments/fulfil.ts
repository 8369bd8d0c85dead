import type { Db } from '../../db/types'
import type { AuditBy } from '../../domain/audit'
import { creditPurchase, type Fulfilment } from '../../domain/fulfilment'
import { packByPriceId } from '../../domain/packs'
import { closePurchase, type PurchaseRow } from '../../domain/purchases'
import { log } from '../../log'
import type { PaymentProvider } from '../../providers/payments/types'
import { kickOutbox } from '../../providers/email'
import { afterLedger } from '../after-ledger'

export type SessionOutcome = Fulfilment['outcome'] | 'unpaid' | 'closed' | 'mismatch'

/** Whether what the service charged is the purchase's pack, at its price and in its currency. */
function matches(
  purchase: PurchaseRow,
  charged: { priceId?: string | null; amount: number; currency: string },
): boolean {
  const pack = packByPriceId(purchase.priceId)
  return (
    !!pack &&
    (charged.priceId === undefined || charged.priceId === purchase.priceId) &&
    charged.amount === purchase.amount &&
    charged.currency.toLowerCase() === pack.currency.toLowerCase()
  )
}

/**
 * A checkout's purchase, credited if its session is paid. What is credited is the purchase row (the key and
 * pack chosen when the checkout was created), and only when the service's own record of the session (its
 * line items, total and currency) matches it: metadata an event carries decides nothing.
 */
export async function fulfilSession(
  db: Db,
  by: AuditBy,
  provider: PaymentProvider,
  purchase: PurchaseRow,
): Promise<SessionOutcome> {
  if (purchase.status === 'paid') return 'already'
  const facts = await provider.checkoutFacts(purchase.checkoutSessionId!)
  if (facts.status === 'expired') {
    await closePurchase(db, purchase.id, 'expired')
    return 'closed'
  }
  if (
    facts.quantity !== 1 ||
    !matches(purchase, { priceId: facts.priceId, amount: facts.amountTotal, currency: facts.currency })
  ) {
    log('error', 'a checkout does not match its purchase: not credited', {
      purchase_id: purchase.id,
      session: facts.id,
    })
    await closePurchase(db, purchase.id, 'failed')
    return 'mismatch'
  }
  if (facts.paymentStatus !== 'paid') return 'unpaid'
  const fulfilment = await creditPurchase(db, by, purchase.id, {
    provider: provider.kind,
    paymentIntentId: facts.paymentIntentId,
    customerId: facts.customerId,
    email: facts.email,
    // Every checkout keeps its card for off-session use (the payment page says so); the receipt names it too.
    card: facts.card,
    receiptUrl: facts.receiptUrl,
  })
  if (fulfilment.outcome === 'credited') credited(fulfilment)
  return fulfilment.outcome
}

/** An auto-recharge's purchase, credited when its payment intent succeeded for the purchase's amount. */
export async function fulfilIntent(
  db: Db,
  by: AuditBy,
  provider: PaymentProvider,
  purchase: PurchaseRow,
  paymentIntentId: string,
): Promise<SessionOutcome> {
  if (purchase.status === 'paid') return 'already'
  const facts = await provider.paymentIntentFacts(paymentIntentId)
  if (!matches(purchase, { amount: facts.amount, currency: facts.currency })) {
    log('error', 'a payment does not match its purchase: not credited', { purchase_id: purchase.id, payment: facts.id })
    return 'mismatch'
  }
  if (facts.status !== 'succeeded') return 'unpaid'
  const fulfilment = await creditPurchase(db, by, purchase.id, {
    provider: provider.kind,
    paymentIntentId: facts.id,
    customerId: facts.customerId,
    email: null,
    card: facts.card,
    receiptUrl: facts.receiptUrl,
  })
  if (fulfilment.outcome === 'credited') credited(fulfilment)
  return fulfilment.outcome
}

/** After a credit committed: its alerts and auto-recharge, and its receipt sent. */
function credited(fulfilment: Extract<Fulfilment, { outcome: 'credited' }>) {
  afterLedger(fulfilment.ledger)
  if (fulfilment.mailed) kickOutbox()
}
