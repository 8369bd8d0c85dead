import * as v from 'valibot'
import { deliveryIdParam, type WebhookDelivery } from '~/contracts/webhooks'
import { WebhookNotFound } from '../../domain/refusals'
import { listDeliveries, queueTestEvent, replayDelivery } from '../../domain/webhook-deliveries'
import type { Caller } from '../caller'
import { sessionAccess } from './endpoints'
import { kickWebhooks } from './worker'

export function parseDeliveryId(params: Record<string, string>): string {
  const parsed = v.safeParse(deliveryIdParam, params.deliveryId)
  if (!parsed.success) throw new WebhookNotFound('delivery')
  return parsed.output
}

/** The endpoint's delivery log: newest deliveries first, each with its attempts. */
export async function webhookDeliveriesFor(
  caller: Caller,
  endpointId: string,
  query: { limit: number; status?: WebhookDelivery['status'] },
  access = sessionAccess,
): Promise<{ deliveries: WebhookDelivery[] }> {
  const { db, endpoint } = await access.endpoint(caller, endpointId)
  return { deliveries: await listDeliveries(db, endpoint, query) }
}

/** Sends a logged delivery's event again, at once, with a fresh set of retries. */
export async function replayWebhookDeliveryFor(
  caller: Caller,
  endpointId: string,
  deliveryId: string,
  access = sessionAccess,
): Promise<WebhookDelivery> {
  const { db, endpoint } = await access.endpoint(caller, endpointId)
  const replay = await replayDelivery(db, endpoint, deliveryId)
  kickWebhooks()
  return replay
}

/** A `webhook.test` event to this endpoint alone. */
export async function sendTestWebhookFor(
  caller: Caller,
  endpointId: string,
  access = sessionAccess,
): Promise<WebhookDelivery> {
  const { db, endpoint } = await access.endpoint(caller, endpointId)
  const delivery = await queueTestEvent(db, endpoint)
  kickWebhooks()
  return delivery
}
