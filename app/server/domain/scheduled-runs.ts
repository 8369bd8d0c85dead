import { sql } from 'drizzle-orm'
import { rowsOf } from '../db/rows'
import type { Db } from '../db/types'

/**
 * Claims this period's run of `job` for `instance`: true for the one caller (across every instance on the
 * database) that finds the last run at least `periodMs` old and moves it to now, false for everyone else.
 * One statement, so two instances claiming at once serialise on the row and the second sees the first's run.
 */
export async function claimScheduledRun(db: Db, job: string, periodMs: number, instance: string): Promise<boolean> {
  const rows = rowsOf<{ job: string }>(
    await db.execute(sql`
      insert into scheduled_runs (job, last_run_at, last_instance) values (${job}, now(), ${instance})
      on conflict (job) do update set last_run_at = now(), last_instance = excluded.last_instance
        where scheduled_runs.last_run_at <= now() - make_interval(secs => ${periodMs / 1000})
      returning job`),
  )
  return rows.length === 1
}
