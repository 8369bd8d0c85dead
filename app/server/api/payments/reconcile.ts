import { getDb } from '../../db/client'
import type { Db } from '../../db/types'
import { pendingCardSetups } from '../../domain/card-setups'
import { pendingCheckouts } from '../../domain/purchases'
import { serverEnv } from '../../env'
import { errorFields, log } from '../../log'
import type { PaymentProvider } from '../../providers/payments/types'
import { paymentsBy } from '../audit/actor'
import { startPeriodic } from '../periodic'
import { fulfilSetup } from './card-setup'
import { fulfilSession } from './fulfil'
import { paymentProvider, paymentsKind } from './provider'

/** How often an instance tries a pass; one instance on the database does it per period. */
export const RECONCILE_INTERVAL_MS = 60_000
/** The webhook's turn first: a checkout is asked about only once it is this old. */
export const RECONCILE_AFTER_MS = 2 * 60_000
/** Checkouts asked about in one pass at most (the oldest first). */
const PASS_LIMIT = 200

/**
 * Whether a checkout of this age is asked about in this pass: at 2, 4, 8, 16… minutes, each within a window
 * of two passes (a pass may be skipped), so a buyer who left a checkout open costs the payment service about
 * ten look-ups over its day rather than one a minute, while a payment whose event was lost is credited within
 * minutes.
 */
export function dueForCheck(ageMs: number, afterMs = RECONCILE_AFTER_MS, intervalMs = RECONCILE_INTERVAL_MS): boolean {
  if (ageMs < afterMs) return false
  const step = afterMs * 2 ** Math.floor(Math.log2(ageMs / afterMs))
  return ageMs - 2 * intervalMs < step
}

/**
 * One pass: every checkout (and card setup) of this provider still pending whose turn it is, asked of the
 * payment service and settled through the fulfilment the webhook uses, so a session paid before a crash lost
 * its event is credited, exactly once (the purchase row's lock and its one ledger entry decide, whoever else
 * credits it meanwhile), and an expired one is closed. Answers how many it credited and saved.
 */
export async function reconcilePayments(
  db: Db,
  provider: PaymentProvider,
): Promise<{ credited: number; saved: number }> {
  const olderThanSeconds = RECONCILE_AFTER_MS / 1000
  const now = Date.now()
  const due = (row: { createdAt: Date }) => dueForCheck(now - row.createdAt.getTime())
  let credited = 0
  let saved = 0
  for (const purchase of (await pendingCheckouts(db, provider.kind, { olderThanSeconds, limit: PASS_LIMIT })).filter(
    due,
  ))
    try {
      if ((await fulfilSession(db, paymentsBy(), provider, purchase)) === 'credited') credited++
    } catch (error) {
      log('warn', 'payment reconciler: checkout not settled', { purchase_id: purchase.id, error: errorFields(error) })
    }
  for (const setup of (await pendingCardSetups(db, provider.kind, { olderThanSeconds, limit: PASS_LIMIT })).filter(due))
    try {
      if ((await fulfilSetup(db, paymentsBy(), provider, setup)) === 'saved') saved++
    } catch (error) {
      log('warn', 'payment reconciler: card setup not settled', { setup_id: setup.id, error: errorFields(error) })
    }
  if (credited || saved) log('info', 'payment reconciler settled sessions whose events never came', { credited, saved })
  return { credited, saved }
}

/** Started with the server: a pass now and every RECONCILE_INTERVAL_MS, on whichever instance claims the period. */
export function startPaymentReconciler(): void {
  startPeriodic({
    name: 'payment-reconciler',
    intervalMs: RECONCILE_INTERVAL_MS,
    oncePerPeriod: true,
    async run() {
      const env = serverEnv()
      if (paymentsKind(env)) await reconcilePayments(await getDb(), paymentProvider(env))
    },
  })
}
