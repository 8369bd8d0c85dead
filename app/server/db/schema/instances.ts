import { jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core'

/**
 * The server processes sharing this database, each with a heartbeat and a fingerprint of every secret that
 * must be equal across instances, so a process starts only if its secrets match those of the live ones.
 */
export const appInstances = pgTable('app_instances', {
  id: text('id').primaryKey(),
  seenAt: timestamp('seen_at', { withTimezone: true }).notNull().defaultNow(),
  secrets: jsonb('secrets').$type<Record<string, string>>().notNull(),
})
