import { attemptById, failAttempt } from '../../../domain/auto-recharge'
import { purchaseById } from '../../../domain/purchases'
import { fulfilIntent } from '../fulfil'
import { rechargeFailedNotice } from '../recharge-notice'
import { metadataOf, text, type EventHandler } from './types'

/** The auto-recharge attempt behind a payment intent, by the attempt id it was created with. */
async function attemptOf(context: Parameters<EventHandler>[0]) {
  const metadata = metadataOf(context.event.object)
  if (metadata.kind !== 'auto_recharge' || !metadata.attempt_id) return undefined
  return attemptById(context.db, metadata.attempt_id)
}

/**
 * `payment_intent.succeeded`: an auto-recharge's charge went through, so its purchase is credited. A
 * checkout's payment intent succeeds too, but its purchase is the session's: credited by the session's
 * event and never a second time here.
 */
export const intentSucceeded: EventHandler = async (context) => {
  const attempt = await attemptOf(context)
  if (!attempt?.purchaseId) return
  const purchase = await purchaseById(context.db, attempt.purchaseId)
  if (purchase)
    await fulfilIntent(context.db, context.by, context.provider, purchase, text(context.event.object, 'id') ?? '')
}

/** `payment_intent.payment_failed`: an auto-recharge's charge was declined after all; it turns itself off. */
export const intentFailed: EventHandler = async (context) => {
  const attempt = await attemptOf(context)
  if (!attempt) return
  const error = context.event.object.last_payment_error as { message?: string } | undefined
  await failAttempt(context.db, attempt, error?.message ?? 'the card was declined', rechargeFailedNotice())
}
