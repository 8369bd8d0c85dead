import { sessionClosed, sessionPaid } from './checkout-session'
import { setupSucceeded } from './setup-intent'
import { intentFailed, intentSucceeded } from './payment-intent'
import { chargeRefunded, disputeCreated } from './reversal'
import type { EventHandler } from './types'

/** The events this app acts on, by type; any other is recorded and acknowledged. */
export const eventHandlers: Record<string, EventHandler> = {
  'checkout.session.completed': sessionPaid,
  'checkout.session.async_payment_succeeded': sessionPaid,
  'checkout.session.async_payment_failed': sessionClosed('failed'),
  'checkout.session.expired': sessionClosed('expired'),
  'setup_intent.succeeded': setupSucceeded,
  'payment_intent.succeeded': intentSucceeded,
  'payment_intent.payment_failed': intentFailed,
  'charge.refunded': chargeRefunded,
  'charge.dispute.created': disputeCreated,
}
