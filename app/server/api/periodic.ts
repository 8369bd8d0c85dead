import { getDb } from '../db/client'
import { claimScheduledRun } from '../domain/scheduled-runs'
import { serverEnv } from '../env'
import { onShutdown } from '../lifecycle'
import { errorFields, log } from '../log'
import { instanceId } from './instances'

export interface PeriodicWork {
  /** Its name in log lines, and in `scheduled_runs` when `oncePerPeriod`. */
  name: string
  intervalMs: number
  /**
   * Done by one instance a period across every instance on the database: the one whose conditional upsert of
   * `scheduled_runs` moves the job's last run on (claimed a little under the interval, so each instance's next
   * tick finds the period over). Otherwise every instance does it (work that is idempotent, such as a sweep).
   */
  oncePerPeriod?: boolean
  run: () => Promise<void>
}

/**
 * A pass of the work now, and one every `intervalMs` while the server runs; a pass under way absorbs another
 * call, a failure is logged and the next tick tries again, and shutdown waits for the pass under way. Answers the
 * pass (for tests and for a caller that wants one at once).
 */
export function startPeriodic(work: PeriodicWork): () => Promise<void> {
  let running: Promise<void> | undefined
  const pass = () =>
    (running ??= (async () => {
      try {
        if (work.oncePerPeriod) {
          const claimed = await claimScheduledRun(
            await getDb(),
            work.name,
            work.intervalMs * 0.9,
            instanceId(serverEnv()),
          )
          if (!claimed) return
        }
        await work.run()
      } catch (error) {
        log('error', `${work.name} failed`, { error: errorFields(error) })
      } finally {
        running = undefined
      }
    })())
  const timer = setInterval(() => void pass(), work.intervalMs)
  timer.unref?.()
  onShutdown(async () => {
    clearInterval(timer)
    await running
  })
  void pass()
  return pass
}
