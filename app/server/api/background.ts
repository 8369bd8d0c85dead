import { startOutboxWorker } from '../providers/email'
import { startConversionPool } from '../providers/reader/convert-pool/convert-off-thread'
import { startBulkWorker } from './bulk/worker'
import { registerInstance } from './instances'
import { startRechargeWorker } from './payments/recharge-worker'
import { startRequestLogRetention } from './request-log/retention'

/**
 * The work a server does besides answering: joining the instances on its database (shared secrets checked),
 * draining the e-mail outbox, working the bulk-job queue and charging auto-recharges, pruning the request log
 * past its retention; and the reader's conversion threads, started before a page needs them. Started once, as
 * the server entry (app/server.ts) loads; each part registers its own stop with `onShutdown`.
 */
export function startBackgroundWork(): void {
  registerInstance()
  startOutboxWorker()
  startBulkWorker()
  startRechargeWorker()
  startConversionPool()
  startRequestLogRetention()
}
