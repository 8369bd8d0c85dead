import { sql } from 'drizzle-orm'
import { bigint, boolean, check, pgTable, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core'
import { apiKeys } from './keys'

/**
 * Balance alerts: at most 3 thresholds per key. `armed` is cleared when a debit takes the balance below
 * the threshold (and the alert is queued) and set again when a credit lifts the balance back to it.
 */
export const balanceNotifications = pgTable(
  'balance_notifications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    keyId: uuid('key_id')
      .notNull()
      .references(() => apiKeys.id),
    threshold: bigint('threshold', { mode: 'number' }).notNull(),
    email: text('email').notNull(),
    armed: boolean('armed').notNull(),
    lastFiredAt: timestamp('last_fired_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique('balance_notifications_key_threshold').on(t.keyId, t.threshold),
    check('balance_notifications_threshold_positive', sql`${t.threshold} > 0`),
  ],
)
