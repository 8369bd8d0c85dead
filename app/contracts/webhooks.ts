/**
 * Contracts of webhook endpoints (Standard Webhooks, https://www.standardwebhooks.com/): the events an
 * endpoint may ask for, the endpoint as the owner sees it, its deliveries and their attempts.
 */
import * as v from 'valibot'
import { isSingleLine, isStorableText, wholeNumberText } from './common'
import { organisationIdParam } from './organisations'

/** What an endpoint can subscribe to. `webhook.test` is not among them: it goes only to the endpoint asked. */
export const webhookEventTypes = [
  'balance.low',
  'limit.reached',
  'bulk_job.completed',
  'batch.completed',
  'payment.succeeded',
  'key.created',
  'key.revoked',
  'member.joined',
] as const
export type WebhookEventType = (typeof webhookEventTypes)[number]
export const webhookTestEvent = 'webhook.test'

/** Endpoints one owner may have. */
export const MAX_WEBHOOK_ENDPOINTS = 20
export const MAX_WEBHOOK_URL_LENGTH = 2048

const webhookUrl = v.pipe(
  v.string(),
  v.trim(),
  v.maxLength(MAX_WEBHOOK_URL_LENGTH, `must be at most ${MAX_WEBHOOK_URL_LENGTH} characters`),
  v.check((s) => URL.canParse(s) && /^https?:$/.test(new URL(s).protocol), 'must be an http:// or https:// address'),
  v.check(
    (s) => !URL.canParse(s) || (!new URL(s).username && !new URL(s).password),
    'must not hold a user or password',
  ),
)

const events = v.pipe(
  v.array(v.picklist(webhookEventTypes, `must name events among ${webhookEventTypes.join(', ')}`)),
  v.minLength(1, 'must name at least one event'),
  v.transform((list) => [...new Set(list)]),
)

const description = v.nullable(
  v.pipe(
    v.string(),
    v.trim(),
    v.maxLength(200, 'must be at most 200 characters'),
    v.check(isSingleLine, 'must be a single line'),
    v.check(isStorableText, 'contains a character that cannot be stored'),
    v.transform((s) => s || null),
  ),
)

/** Whose endpoints: an organisation the caller may manage webhooks of (`webhooks.manage`); its personal one if absent. */
const organisationId = v.optional(organisationIdParam)

export const createWebhookInput = v.strictObject({
  url: webhookUrl,
  events,
  description: v.optional(description),
  organisation_id: organisationId,
})

export const webhooksQuery = v.strictObject({ organisation_id: organisationId })

export const updateWebhookInput = v.strictObject({
  url: v.optional(webhookUrl),
  events: v.optional(events),
  description: v.optional(description),
  /** true: no deliveries until enabled again; false also clears a disabling for failures. */
  disabled: v.optional(v.boolean()),
})

export const webhookIdParam = v.pipe(v.string(), v.uuid('must be a webhook endpoint id'))
export const deliveryIdParam = v.pipe(v.string(), v.uuid('must be a delivery id'))

export const webhookEndpointSchema = v.object({
  id: v.string(),
  url: v.string(),
  description: v.nullable(v.string()),
  events: v.array(v.picklist(webhookEventTypes)),
  disabled: v.boolean(),
  /** `owner`: switched off by its owner; `failing`: every delivery failed for 3 days. */
  disabled_reason: v.nullable(v.picklist(['owner', 'failing'])),
  /** The first failure since the last delivery that succeeded. */
  failing_since: v.nullable(v.string()),
  /** Until then the previous secret still signs too (a rotation's 24 hours). */
  previous_secret_until: v.nullable(v.string()),
  created_at: v.string(),
  updated_at: v.string(),
})
export const webhookEndpointsAnswer = v.object({ endpoints: v.array(webhookEndpointSchema) })
/** The endpoint with its signing secret, answered once: when created, and when its secret is rotated. */
export const webhookWithSecretAnswer = v.object({ ...webhookEndpointSchema.entries, secret: v.string() })

export const webhookAttemptSchema = v.object({
  attempted_at: v.string(),
  duration_ms: v.number(),
  /** The receiver's status; null when no answer came (refused address, connection error, timeout). */
  response_status: v.nullable(v.number()),
  /** The first KB of the receiver's answer. */
  response_body: v.nullable(v.string()),
  error: v.nullable(v.string()),
  succeeded: v.boolean(),
})

export const webhookDeliverySchema = v.object({
  id: v.string(),
  /** The message id receivers see as `webhook-id`: the same on every attempt and replay of one event. */
  event_id: v.string(),
  event_type: v.string(),
  status: v.picklist(['pending', 'delivered', 'failed']),
  created_at: v.string(),
  next_attempt_at: v.nullable(v.string()),
  delivered_at: v.nullable(v.string()),
  /** The delivery this one replays. */
  replay_of: v.nullable(v.string()),
  /** The event as it is sent: `{type, timestamp, data}`. */
  payload: v.object({ type: v.string(), timestamp: v.string(), data: v.record(v.string(), v.unknown()) }),
  attempts: v.array(webhookAttemptSchema),
})
export const webhookDeliveriesAnswer = v.object({ deliveries: v.array(webhookDeliverySchema) })

export const webhookDeliveriesQuery = v.strictObject({
  limit: v.optional(wholeNumberText(1, 100), '50'),
  status: v.optional(v.picklist(['pending', 'delivered', 'failed'], 'must be pending, delivered or failed')),
})

export type WebhookEndpoint = v.InferOutput<typeof webhookEndpointSchema>
export type WebhookDelivery = v.InferOutput<typeof webhookDeliverySchema>
export type WebhookAttempt = v.InferOutput<typeof webhookAttemptSchema>
export type CreateWebhookInput = v.InferOutput<typeof createWebhookInput>
export type UpdateWebhookInput = v.InferOutput<typeof updateWebhookInput>
