import { sql } from 'drizzle-orm'
import { bigserial, boolean, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core'

/**
 * Where an owner wants events sent (Standard Webhooks). The owner is an account (`owner_account_id`, the
 * users.uid that owns account keys); `organisation_id` is for endpoints of an organisation, without a foreign
 * key until organisations exist on this database. The signing secret is sealed (AES-GCM under
 * KEY_ENCRYPTION_SECRET, bound to the row's id): it must be kept to sign, so it cannot be a hash.
 */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: uuid('id').primaryKey(),
    ownerAccountId: text('owner_account_id').notNull(),
    organisationId: uuid('organisation_id'),
    url: text('url').notNull(),
    description: text('description'),
    events: text('events').array().notNull(),
    secretCiphertext: text('secret_ciphertext').notNull(),
    /** After a rotation the previous secret signs beside the new one until `previous_secret_until`. */
    previousSecretCiphertext: text('previous_secret_ciphertext'),
    previousSecretUntil: timestamp('previous_secret_until', { withTimezone: true }),
    disabledAt: timestamp('disabled_at', { withTimezone: true }),
    /** `owner` (switched off) or `failing` (every attempt failed for three days). */
    disabledReason: text('disabled_reason', { enum: ['owner', 'failing'] }),
    /** The first failed attempt since the last one that succeeded; null while it delivers. */
    failingSince: timestamp('failing_since', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('webhook_endpoints_owner_idx').on(t.ownerAccountId),
    index('webhook_endpoints_org_idx').on(t.organisationId),
  ],
)

/**
 * The outbox of events: written in the transaction of the change they tell of (a key created, a job ended, a
 * payment credited; a balance alert's mail row by trigger, db/functions/webhooks.sql). A worker fans each out
 * once (SKIP LOCKED) into one delivery per endpoint of its owner that wants it; an event nobody wants is
 * deleted then. `id` is the message id receivers see as `webhook-id`.
 */
export const webhookEvents = pgTable(
  'webhook_events',
  {
    id: text('id')
      .primaryKey()
      .default(sql`('msg_' || replace(gen_random_uuid()::text, '-', ''))`),
    type: text('type').notNull(),
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
    /** Whose event it is: the key it is about (its owner is resolved when fanned out), or the owner itself. */
    keyId: uuid('key_id'),
    ownerAccountId: text('owner_account_id'),
    organisationId: uuid('organisation_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    fannedOutAt: timestamp('fanned_out_at', { withTimezone: true }),
  },
  (t) => [
    index('webhook_events_unfanned_idx')
      .on(t.createdAt)
      .where(sql`fanned_out_at is null`),
    index('webhook_events_created_idx').on(t.createdAt),
  ],
)

/**
 * One event for one endpoint: the delivery outbox. A worker claims due rows with SKIP LOCKED and a lease
 * (`next_attempt_at` moved ahead while it sends), so instances never send one concurrently; a failure moves
 * `next_attempt_at` to the next retry, up to three days after the delivery was made.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    eventId: text('event_id')
      .notNull()
      .references(() => webhookEvents.id, { onDelete: 'cascade' }),
    endpointId: uuid('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    status: text('status', { enum: ['pending', 'delivered', 'failed'] })
      .notNull()
      .default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    replayOf: uuid('replay_of'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
  },
  (t) => [
    index('webhook_deliveries_due_idx')
      .on(t.nextAttemptAt)
      .where(sql`status = 'pending'`),
    index('webhook_deliveries_endpoint_idx').on(t.endpointId, t.createdAt),
  ],
)

/** Every attempt at a delivery, as its log shows it. */
export const webhookAttempts = pgTable(
  'webhook_attempts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    deliveryId: uuid('delivery_id')
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
    attemptedAt: timestamp('attempted_at', { withTimezone: true }).notNull().defaultNow(),
    durationMs: integer('duration_ms').notNull(),
    responseStatus: integer('response_status'),
    responseBody: text('response_body'),
    error: text('error'),
    succeeded: boolean('succeeded').notNull(),
  },
  (t) => [index('webhook_attempts_delivery_idx').on(t.deliveryId, t.id)],
)
