import { getDb } from '../../db/client'
import { pruneRequestLog } from '../../domain/request-log'
import { claimScheduledRun } from '../../domain/scheduled-runs'
import { serverEnv } from '../../env'
import { onShutdown } from '../../lifecycle'
import { errorFields, log } from '../../log'
import { instanceId } from '../instances'

/** How often the request log is pruned: rows live at most this much longer than the retention. */
export const PRUNE_INTERVAL_MS = 60 * 60 * 1000

let timer: ReturnType<typeof setInterval> | undefined
let running: Promise<void> | undefined

/**
 * Removes requests older than REQUEST_LOG_RETENTION_DAYS, if no instance on this database has done so within
 * the period (so several instances prune once per period between them); a pass under way absorbs another call.
 */
export function pruneRequestLogNow(): Promise<void> {
  running ??= (async () => {
    try {
      const db = await getDb()
      const env = serverEnv()
      if (!(await claimScheduledRun(db, 'request-log-retention', PRUNE_INTERVAL_MS, instanceId(env)))) return
      const removed = await pruneRequestLog(db, env.REQUEST_LOG_RETENTION_DAYS)
      log('info', 'request log pruned', { removed })
    } catch (error) {
      log('error', 'request log pruning failed', { error: errorFields(error) })
    } finally {
      running = undefined
    }
  })()
  return running
}

/** Tries at start and then every PRUNE_INTERVAL_MS; the run happens on whichever instance claims the period first. */
export function startRequestLogRetention(): void {
  if (timer) return
  timer = setInterval(() => void pruneRequestLogNow(), PRUNE_INTERVAL_MS)
  timer.unref?.()
  onShutdown(async () => {
    clearInterval(timer)
    timer = undefined
    await running
  })
  void pruneRequestLogNow()
}
