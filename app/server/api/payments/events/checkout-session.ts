import { cardSetupBySession, expireCardSetup } from '../../../domain/card-setups'
import { closePurchase, purchaseBySession } from '../../../domain/purchases'
import { fulfilSetup } from '../card-setup'
import { fulfilSession } from '../fulfil'
import { text, type EventHandler } from './types'

/**
 * `checkout.session.completed` (paid at once, or `unpaid` while a bank debit clears) and
 * `checkout.session.async_payment_succeeded`: both ask for the same thing, the session's purchase credited
 * if the session is paid, which happens once whichever arrives first (or twice).
 */
export const sessionPaid: EventHandler = async ({ db, by, provider, event }) => {
  const sessionId = text(event.object, 'id') ?? ''
  const purchase = await purchaseBySession(db, sessionId)
  // A session this app did not create (another integration on the same Stripe account) is not ours to credit.
  if (purchase) return void (await fulfilSession(db, by, provider, purchase))
  // A setup-mode session saves a card: found by our own row for it, never by what the event names.
  const setup = await cardSetupBySession(db, sessionId)
  if (setup) await fulfilSetup(db, by, provider, setup)
}

/** `checkout.session.async_payment_failed`, `checkout.session.expired`: the purchase will not be paid. */
export const sessionClosed =
  (status: 'failed' | 'expired'): EventHandler =>
  async ({ db, event }) => {
    const sessionId = text(event.object, 'id') ?? ''
    const purchase = await purchaseBySession(db, sessionId)
    if (purchase) return closePurchase(db, purchase.id, status)
    const setup = await cardSetupBySession(db, sessionId)
    if (setup && status === 'expired') await expireCardSetup(db, setup.id)
  }
