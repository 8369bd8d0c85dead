import { purchaseByIntent } from '../../../domain/purchases'
import { reversePurchase } from '../../../domain/reversal'
import { text, whole, type EventHandler } from './types'

/** The share of a purchase's tokens that `amount` (minor units) of its price stands for. */
const share = (tokens: number, amount: number, paid: number) =>
  paid > 0 ? Math.min(tokens, Math.floor((tokens * amount) / paid)) : 0

/** `charge.refunded`: the refunded share of the purchase is taken back (its running total, so partial refunds add up). */
export const chargeRefunded: EventHandler = async ({ db, by, event }) => {
  const purchase = await purchaseByIntent(db, text(event.object, 'payment_intent') ?? '')
  if (!purchase) return
  const refunded = whole(event.object, 'amount_refunded')
  await reversePurchase(db, by, {
    purchaseId: purchase.id,
    target: share(purchase.tokens, refunded, purchase.amount),
    externalRef: `refund:${text(event.object, 'id')}:${refunded}`,
    reason: 'refund',
    stopAutoRecharge: false,
  })
}

/** `charge.dispute.created`: the disputed share is taken back, and auto-recharge stops charging that card. */
export const disputeCreated: EventHandler = async ({ db, by, event }) => {
  const purchase = await purchaseByIntent(db, text(event.object, 'payment_intent') ?? '')
  if (!purchase) return
  await reversePurchase(db, by, {
    purchaseId: purchase.id,
    target: share(purchase.tokens, whole(event.object, 'amount'), purchase.amount),
    externalRef: `dispute:${text(event.object, 'id')}`,
    reason: 'dispute',
    stopAutoRecharge: true,
  })
}
