import { getDb } from '../../db/client'
import { pruneIdempotencyKeys } from '../../domain/idempotency-keys'
import { log } from '../../log'
import { startPeriodic } from '../periodic'

/** How often stored idempotent answers past their 24-hour window are removed. */
export const IDEMPOTENCY_PRUNE_INTERVAL_MS = 60 * 60 * 1000

/**
 * Removes `idempotency_keys` rows past the window at start and hourly, on whichever instance claims the period
 * (`scheduled_runs`). Rows past the window are already ignored by the claim; this only keeps the table small.
 */
export function startIdempotencyRetention(): void {
  startPeriodic({
    name: 'idempotency-keys-retention',
    intervalMs: IDEMPOTENCY_PRUNE_INTERVAL_MS,
    oncePerPeriod: true,
    async run() {
      const removed = await pruneIdempotencyKeys(await getDb())
      if (removed > 0) log('info', 'idempotency keys pruned', { removed })
    },
  })
}
