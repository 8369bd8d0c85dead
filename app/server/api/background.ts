import { startOutboxWorker } from '../providers/email'
import { preloadBrowserEngine } from '../providers/reader/browser/launch'
import { startConversionPool } from '../providers/reader/convert-pool/convert-off-thread'
import { serverEnv } from '../env'
import { startBulkWorker } from './bulk/worker'
import { registerInstance } from './instances'
import { startPaymentReconciler } from './payments/reconcile'
import { startShotSweeper } from './reader/shots'
import { startRechargeWorker } from './payments/recharge-worker'
import { startRequestLogRetention } from './request-log/retention'
import { startWebhookWorker } from './webhooks/worker'
import { startIdempotencyRetention } from './idempotency/retention'

/**
 * The work a server does besides answering: joining the instances on its database (shared secrets checked),
 * draining the e-mail outbox, delivering webhooks, working the bulk-job queue and charging auto-recharges, settling checkouts paid
 * whose events never came, pruning the request log past its retention and stored idempotent answers past their window, removing the reader's screenshots once
 * their links expire; and the reader's conversion threads and browser engine, loaded before a page needs them.
 * Started once, as the server entry (app/server.ts) loads; each part registers its own stop with `onShutdown`.
 */
export function startBackgroundWork(): void {
  registerInstance()
  startOutboxWorker()
  startWebhookWorker()
  startBulkWorker()
  startRechargeWorker()
  startPaymentReconciler()
  startConversionPool()
  preloadBrowserEngine(serverEnv())
  startRequestLogRetention()
  startShotSweeper()
  startIdempotencyRetention()
}
