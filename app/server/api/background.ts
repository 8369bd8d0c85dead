import { startOutboxWorker } from '../providers/email'
import { startConversionPool } from '../providers/reader/convert-pool/convert-off-thread'
import { startBulkWorker } from './bulk/worker'
import { registerInstance } from './instances'
import { startRechargeWorker } from './payments/recharge-worker'

/**
 * The work a server does besides answering: joining the instances on its database (shared secrets checked), draining the e-mail outbox, working the bulk-job queue and
 * charging auto-recharges; and the reader's conversion threads, started before a page needs them.
 * Idempotent; the first request starts it (the warm-up plugin makes one as the server starts, so a
 * restarted server resumes jobs before any visitor arrives).
 */
export function startBackgroundWork(): void {
  registerInstance()
  startOutboxWorker()
  startBulkWorker()
  startRechargeWorker()
  startConversionPool()
}
