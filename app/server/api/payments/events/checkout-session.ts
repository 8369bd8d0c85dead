import { closePurchase, purchaseBySession } from '../../../domain/purchases'
import { fulfilSession } from '../fulfil'
import { text, type EventHandler } from './types'

/**
 * `checkout.session.completed` (paid at once, or `unpaid` while a bank debit clears) and
 * `checkout.session.async_payment_succeeded`: both ask for the same thing, the session's purchase credited
 * if the session is paid, which happens once whichever arrives first (or twice).
 */
export const sessionPaid: EventHandler = async ({ db, provider, event }) => {
  const purchase = await purchaseBySession(db, text(event.object, 'id') ?? '')
  // A session this app did not create (another integration on the same Stripe account) is not ours to credit.
  if (purchase) await fulfilSession(db, provider, purchase)
}

/** `checkout.session.async_payment_failed`, `checkout.session.expired`: the purchase will not be paid. */
export const sessionClosed =
  (status: 'failed' | 'expired'): EventHandler =>
  async ({ db, event }) => {
    const purchase = await purchaseBySession(db, text(event.object, 'id') ?? '')
    if (purchase) await closePurchase(db, purchase.id, status)
  }
