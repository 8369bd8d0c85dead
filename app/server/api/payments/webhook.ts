import { getDb } from '../../db/client'
import { markPaymentEventProcessed, recordFailedPaymentEvent, recordPaymentEvent } from '../../domain/payment-events'
import { PaymentEventMalformed } from '../../domain/refusals'
import { log } from '../../log'
import type { PaymentProvider } from '../../providers/payments/types'
import { paymentsBy } from '../audit/actor'
import type { Caller } from '../caller'
import { eventHandlers } from './events'

/**
 * POST /api/v1/billing/webhook/stripe, and the sandbox's deliveries: the raw body's signature is checked
 * (400, nothing done, when it is missing, wrong, stale or dated ahead), the event is recorded, handled, and
 * marked processed only after its effect committed. A signed event that is not a well-formed event is
 * refused (400) and recorded as failed, so nothing waits on it as pending. Handlers act on business ids
 * (session, payment intent, charge), so the same event twice, two events for one purchase, or concurrent
 * deliveries credit once. What they change is audited as by `payments`, in the delivery's request (`caller`;
 * the sandbox delivers in none). A database that is down answers 503, and the service's retry does the work then.
 */
export async function receiveWebhook(
  caller: Caller | undefined,
  provider: PaymentProvider,
  payload: string,
  signature: string | null,
) {
  const event = await provider.verifyEvent(payload, signature).catch(async (error: unknown) => {
    if (error instanceof PaymentEventMalformed)
      await recordFailedPaymentEvent(await getDb(), { ...error.record, failure: error.problem })
    throw error
  })
  const db = await getDb()
  if (!(await recordPaymentEvent(db, event))) return { received: true as const }
  const handle = eventHandlers[event.type]
  if (handle) await handle({ db, by: paymentsBy(caller), provider, event })
  else log('debug', 'payment event not handled', { type: event.type })
  await markPaymentEventProcessed(db, event.id)
  return { received: true as const }
}
