import { and, asc, desc, eq, inArray } from 'drizzle-orm'
import { webhookTestEvent, type WebhookDelivery } from '~/contracts/webhooks'
import { webhookAttempts, webhookDeliveries, webhookEvents } from '../db/schema'
import type { Db } from '../db/types'
import { WebhookNotFound, WebhookState } from './refusals'
import type { WebhookEndpointRow } from './webhook-endpoints'

type DeliveryRow = typeof webhookDeliveries.$inferSelect
type EventRow = typeof webhookEvents.$inferSelect

/** The body every attempt of an event sends, byte for byte: `{type, timestamp, data}`. */
export function webhookPayload(event: { type: string; createdAt: Date; data: Record<string, unknown> }) {
  return { type: event.type, timestamp: event.createdAt.toISOString(), data: event.data }
}

/** An endpoint's deliveries, newest first, each with its event and every attempt, oldest first. */
export async function listDeliveries(
  db: Db,
  endpoint: WebhookEndpointRow,
  options: { limit: number; status?: DeliveryRow['status'] },
): Promise<WebhookDelivery[]> {
  const rows = await db
    .select({ delivery: webhookDeliveries, event: webhookEvents })
    .from(webhookDeliveries)
    .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
    .where(
      and(
        eq(webhookDeliveries.endpointId, endpoint.id),
        options.status ? eq(webhookDeliveries.status, options.status) : undefined,
      ),
    )
    .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
    .limit(options.limit)
  const attempts =
    rows.length === 0
      ? []
      : await db
          .select()
          .from(webhookAttempts)
          .where(
            inArray(
              webhookAttempts.deliveryId,
              rows.map((r) => r.delivery.id),
            ),
          )
          .orderBy(asc(webhookAttempts.id))
  return rows.map(({ delivery, event }) => deliveryAnswer(delivery, event, attempts))
}

function deliveryAnswer(
  delivery: DeliveryRow,
  event: EventRow,
  attempts: Array<typeof webhookAttempts.$inferSelect>,
): WebhookDelivery {
  return {
    id: delivery.id,
    event_id: event.id,
    event_type: event.type,
    status: delivery.status,
    created_at: delivery.createdAt.toISOString(),
    next_attempt_at: delivery.status === 'pending' ? delivery.nextAttemptAt.toISOString() : null,
    delivered_at: delivery.deliveredAt?.toISOString() ?? null,
    replay_of: delivery.replayOf,
    payload: webhookPayload(event),
    attempts: attempts
      .filter((a) => a.deliveryId === delivery.id)
      .map((a) => ({
        attempted_at: a.attemptedAt.toISOString(),
        duration_ms: a.durationMs,
        response_status: a.responseStatus,
        response_body: a.responseBody,
        error: a.error,
        succeeded: a.succeeded,
      })),
  }
}

function refuseDisabled(endpoint: WebhookEndpointRow) {
  if (endpoint.disabledAt) throw new WebhookState('This webhook endpoint is disabled: enable it first')
}

/** Sends a delivery's event again, as a new delivery with its own retries (the same `webhook-id`). */
export async function replayDelivery(
  db: Db,
  endpoint: WebhookEndpointRow,
  deliveryId: string,
): Promise<WebhookDelivery> {
  const [found] = await db
    .select({ delivery: webhookDeliveries, event: webhookEvents })
    .from(webhookDeliveries)
    .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
    .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.endpointId, endpoint.id)))
  if (!found) throw new WebhookNotFound('delivery')
  refuseDisabled(endpoint)
  const [replay] = await db
    .insert(webhookDeliveries)
    .values({ eventId: found.event.id, endpointId: endpoint.id, replayOf: found.delivery.id })
    .returning()
  return deliveryAnswer(replay, found.event, [])
}

/** A `webhook.test` event for this endpoint alone, whatever events it asked for. */
export async function queueTestEvent(db: Db, endpoint: WebhookEndpointRow): Promise<WebhookDelivery> {
  refuseDisabled(endpoint)
  return db.transaction(async (tx) => {
    const [event] = await tx
      .insert(webhookEvents)
      .values({
        type: webhookTestEvent,
        data: { endpoint_id: endpoint.id, message: 'A test event: your endpoint receives and verifies webhooks.' },
        ownerAccountId: endpoint.ownerAccountId,
        organisationId: endpoint.organisationId,
        fannedOutAt: new Date(),
      })
      .returning()
    const [delivery] = await tx
      .insert(webhookDeliveries)
      .values({ eventId: event.id, endpointId: endpoint.id })
      .returning()
    return deliveryAnswer(delivery, event, [])
  })
}
