import { sql } from 'drizzle-orm'
import { bigserial, index, integer, pgTable, smallint, text, timestamp, uuid } from 'drizzle-orm/pg-core'

/**
 * One row per metered API request a key was known for, answered or refused: what it cost and how it went,
 * never what it carried. Written in batches off the request path (`api/request-log/writer.ts`) and pruned
 * after `REQUEST_LOG_RETENTION_DAYS`. No foreign key: keys are never deleted, and a batch insert should not
 * look every key up again.
 */
export const requestLog = pgTable(
  'request_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    keyId: uuid('key_id').notNull(),
    /** The request's `X-Request-Id`. */
    requestId: text('request_id').notNull(),
    product: text('product').notNull(),
    model: text('model'),
    /** The request's `X-Request-Tag`: the caller's own label, to filter and group usage by. */
    tag: text('tag'),
    /** The engine instance that computed the answer (`X-Engine`), when one did. */
    engine: text('engine'),
    inputTokens: integer('input_tokens').notNull().default(0),
    outputTokens: integer('output_tokens').notNull().default(0),
    latencyMs: integer('latency_ms').notNull(),
    status: smallint('status').notNull(),
    /** When the request arrived. */
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('request_log_key_time_idx').on(t.keyId, t.createdAt.desc(), t.id.desc()),
    index('request_log_request_id_idx').on(t.requestId),
    index('request_log_created_idx').on(t.createdAt),
    index('request_log_key_tag_idx')
      .on(t.keyId, t.tag, t.createdAt)
      .where(sql`${t.tag} is not null`),
  ],
)
