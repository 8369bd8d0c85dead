import { getDb } from '../../db/client'
import { pruneRequestLog } from '../../domain/request-log'
import { serverEnv } from '../../env'
import { onShutdown } from '../../lifecycle'
import { errorFields, log } from '../../log'

/** How often the request log is pruned: rows live at most this much longer than the retention. */
export const PRUNE_INTERVAL_MS = 60 * 60 * 1000

let timer: ReturnType<typeof setInterval> | undefined
let running: Promise<void> | undefined

/** Removes requests older than REQUEST_LOG_RETENTION_DAYS; a pass under way absorbs another call. */
export function pruneRequestLogNow(): Promise<void> {
  running ??= (async () => {
    try {
      const removed = await pruneRequestLog(await getDb(), serverEnv().REQUEST_LOG_RETENTION_DAYS)
      if (removed > 0) log('info', 'request log pruned', { removed })
    } catch (error) {
      log('error', 'request log pruning failed', { error: errorFields(error) })
    } finally {
      running = undefined
    }
  })()
  return running
}

/** Prunes once at start and then every PRUNE_INTERVAL_MS; every instance may, a pass is idempotent. */
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
