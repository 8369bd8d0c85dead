import { getDb } from '../../db/client'
import { pruneRequestLog } from '../../domain/request-log'
import { serverEnv } from '../../env'
import { log } from '../../log'
import { startPeriodic } from '../periodic'

/** How often the request log is pruned: rows live at most this much longer than the retention. */
export const PRUNE_INTERVAL_MS = 60 * 60 * 1000

/**
 * Removes requests older than REQUEST_LOG_RETENTION_DAYS at start and every PRUNE_INTERVAL_MS, on whichever
 * instance claims the period first (so several instances prune once per period between them).
 */
export function startRequestLogRetention(): void {
  startPeriodic({
    name: 'request-log-retention',
    intervalMs: PRUNE_INTERVAL_MS,
    oncePerPeriod: true,
    async run() {
      const removed = await pruneRequestLog(await getDb(), serverEnv().REQUEST_LOG_RETENTION_DAYS)
      log('info', 'request log pruned', { removed })
    },
  })
}
