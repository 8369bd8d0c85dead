import { index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core'
import { users } from './accounts'
import { organisations } from './organisations'

/**
 * Administration API keys (`sk-admin-…`, README "Administration API"): each manages one organisation through
 * `/v1/organization/…` and acts as the owner who made it (its role is asked again on every call). Only the
 * SHA-256 of the value is kept; `last4` lets its holder recognise it. Revoked rather than deleted, so the audit
 * log's rows keep naming it.
 */
export const adminKeys = pgTable(
  'admin_keys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organisationId: uuid('organisation_id')
      .notNull()
      .references(() => organisations.id),
    name: text('name').notNull(),
    keyHash: text('key_hash').notNull().unique(),
    last4: text('last4').notNull(),
    createdBy: text('created_by')
      .notNull()
      .references(() => users.uid),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [index('admin_keys_organisation_idx').on(t.organisationId, t.createdAt)],
)
