import { sql } from 'drizzle-orm'
import { bigint, check, date, index, numeric, pgTable, smallint, text, timestamp, uuid } from 'drizzle-orm/pg-core'

/**
 * Spend limits (README "Per-key controls"): the most a subject may consume in a calendar period (UTC; weeks start
 * on Monday), in tokens or in US dollars at the price its tokens were bought at. A subject is a key today; a
 * project (its keys together) names itself with `subject_kind = 'project'`, so the rule need not change for it.
 * A subject may have several limits; a consumption must fit in every one. ledger_apply_v3 (through the functions
 * in app/server/db/functions/spend-limits.sql) counts each consumption here under the row's lock, in the debit's
 * own transaction, and takes give-backs off again, so no number of concurrent requests passes a limit.
 */
export const spendLimits = pgTable(
  'spend_limits',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    subjectKind: text('subject_kind', { enum: ['key', 'project'] }).notNull(),
    subjectId: uuid('subject_id').notNull(),
    unit: text('unit', { enum: ['tokens', 'usd'] }).notNull(),
    /** Whole tokens, or dollars (to the micro-dollar). */
    amount: numeric('amount', { precision: 24, scale: 6 }).notNull(),
    period: text('period', { enum: ['day', 'week', 'month'] }).notNull(),
    /** Tokens consumed (net of give-backs) in the period starting on `period_of`; a later period starts at 0. */
    used: bigint('used', { mode: 'number' }).notNull().default(0),
    periodOf: date('period_of'),
    /** A mail goes to `alert_email` once a period, when `used` reaches this percentage of the limit. */
    alertPercent: smallint('alert_percent'),
    alertEmail: text('alert_email'),
    /** The period whose alert was sent. */
    alertedOf: date('alerted_of'),
    /** The period whose `limit.reached` webhook event was emitted (once a period, at its first refusal). */
    reachedOf: date('reached_of'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('spend_limits_subject_idx').on(t.subjectKind, t.subjectId),
    check('spend_limits_subject_kind', sql`${t.subjectKind} in ('key', 'project')`),
    check('spend_limits_unit', sql`${t.unit} in ('tokens', 'usd')`),
    check('spend_limits_period', sql`${t.period} in ('day', 'week', 'month')`),
    check('spend_limits_amount', sql`${t.amount} > 0 and (${t.unit} = 'usd' or ${t.amount} = trunc(${t.amount}))`),
    check('spend_limits_used', sql`${t.used} >= 0`),
    check(
      'spend_limits_alert',
      sql`(${t.alertPercent} is null and ${t.alertEmail} is null) or (${t.alertPercent} between 1 and 100 and ${t.alertEmail} is not null)`,
    ),
  ],
)
