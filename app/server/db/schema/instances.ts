import { integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core'

/**
 * The server processes sharing this database, each with a heartbeat and a fingerprint of every secret that
 * must be equal across instances, so a process starts only if its secrets match those of the live ones. Each row
 * says where its process runs (providers/process-place.ts), so a process restarted after a crash on the same
 * machine knows the row of its dead predecessor for what it is instead of waiting out its heartbeat.
 */
export const appInstances = pgTable('app_instances', {
  id: text('id').primaryKey(),
  seenAt: timestamp('seen_at', { withTimezone: true }).notNull().defaultNow(),
  secrets: jsonb('secrets').$type<Record<string, string>>().notNull(),
  pid: integer('pid'),
  processScope: text('process_scope'),
  processStarted: text('process_started'),
})

/**
 * The last run of each periodic job (request-log pruning), so that with several instances each period's run
 * happens once: an instance runs the job only if it moves `last_run_at` on, which one alone can per period.
 */
export const scheduledRuns = pgTable('scheduled_runs', {
  job: text('job').primaryKey(),
  lastRunAt: timestamp('last_run_at', { withTimezone: true }).notNull(),
  lastInstance: text('last_instance').notNull(),
})
