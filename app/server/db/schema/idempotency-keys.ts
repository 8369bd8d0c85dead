import { index, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core'

/**
 * The answers of metered POSTs sent with an `Idempotency-Key` (the IETF draft's header, Stripe's name), per API
 * key: the same key and the same request within 24 hours gets the stored answer again, never a second debit.
 * A row is claimed (no `status`) before the request runs, so a duplicate sent meanwhile is told it is in
 * flight; only a 2xx answer is stored (a refusal or failure charged nothing, and its row is removed so the
 * key may be sent again). Rows older than the window are pruned hourly (`api/idempotency/retention.ts`). No
 * foreign key, as `request_log`: keys are never deleted.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    keyId: uuid('key_id').notNull(),
    idempotencyKey: text('idempotency_key').notNull(),
    /** SHA-256 of the method, path, the headers the endpoint reads and the body: what "the same request" means. */
    requestHash: text('request_hash').notNull(),
    /** Which claim holds the row, so a claim taken over (its request stalled) cannot store its answer. */
    claim: uuid('claim').notNull(),
    /** The stored answer's status; null while the first request is in flight. */
    status: integer('status'),
    /** The stored answer's body (JSON or text) and the headers replayed with it. */
    response: text('response'),
    responseHeaders: jsonb('response_headers').$type<Record<string, string>>(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.keyId, t.idempotencyKey] }), index('idempotency_keys_created_idx').on(t.createdAt)],
)
