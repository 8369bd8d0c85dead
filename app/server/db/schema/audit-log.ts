import { bigserial, index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core'

/**
 * What was done to an account and its keys, by whom, from where: one row per change, written in the same
 * transaction as the change it records (`domain/audit.ts`), so a change and its row commit or fail together.
 * Rows are never updated; `details` holds ids and amounts, never a key, a token or an address of the payer.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** The account (users.uid) the change belongs to: the key's owner when it has one. */
    accountId: text('account_id'),
    keyId: uuid('key_id'),
    action: text('action').notNull(),
    /** Who did it: `user:<uid>`, `key:<prefix…last4>`, or the service that did (`payments`, `system`). */
    actor: text('actor').notNull(),
    clientAddress: text('client_address'),
    requestId: text('request_id'),
    details: jsonb('details').$type<Record<string, string | number | boolean | null>>().notNull().default({}),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('audit_log_account_idx').on(t.accountId, t.id), index('audit_log_key_idx').on(t.keyId, t.id)],
)
