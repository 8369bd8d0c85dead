import { serverEnv } from '~/server/env'
import { getDb } from '../../db/client'
import type { Db } from '../../db/types'
import {
  claimAttempt,
  failAttempt,
  planCharge,
  recordCharge,
  retryAttemptLater,
  skipAttempt,
  type AttemptRow,
  type Caps,
} from '../../domain/auto-recharge'
import { packByPriceId } from '../../domain/packs'
import { purchaseById } from '../../domain/purchases'
import { PaymentServiceFailed } from '../../domain/refusals'
import { onShutdown } from '../../lifecycle'
import { errorFields, log } from '../../log'
import type { PaymentProvider } from '../../providers/payments/types'
import { paymentsBy } from '../audit/actor'
import { fulfilIntent } from './fulfil'
import { paymentProvider, paymentsKind } from './provider'
import { onRechargeDue } from './recharge-signal'
import { rechargeFailedNotice } from './recharge-notice'

export interface RechargeContext {
  db: Db
  provider: PaymentProvider
  caps: Caps
  /** How long a claimed attempt is this worker's before another may take it (a worker that died). */
  leaseSeconds: number
}

/** A charge the service never confirmed, this many tries on, is settled from the service's own record. */
const MAX_TRIES = 8

/** Charges one claimed attempt: the plan decides under the key's lock, the charge runs outside any transaction. */
async function processAttempt(ctx: RechargeContext, attempt: AttemptRow): Promise<void> {
  const notice = rechargeFailedNotice()
  const plan = await planCharge(ctx.db, attempt, ctx.caps)
  if (plan.kind === 'skip') return skipAttempt(ctx.db, attempt.id, plan.reason)
  if (plan.kind === 'refuse') return failAttempt(ctx.db, attempt, plan.reason, notice)
  if (attempt.tries > MAX_TRIES && attempt.paymentIntentId) {
    // No webhook came for a charge the service took: its record of the payment decides.
    const purchase = await purchaseById(ctx.db, plan.purchaseId)
    const outcome =
      purchase && (await fulfilIntent(ctx.db, paymentsBy(), ctx.provider, purchase, attempt.paymentIntentId))
    if (outcome === 'credited' || outcome === 'already') return
    return failAttempt(ctx.db, attempt, 'the payment service did not confirm the charge', notice)
  }
  try {
    const charged = await ctx.provider.chargeOffSession({
      keyId: attempt.keyId,
      attemptId: attempt.id,
      customerId: plan.customerId,
      paymentMethodId: plan.paymentMethodId,
      pack: packByPriceId(plan.priceId)!,
    })
    if (charged.status !== 'submitted') return failAttempt(ctx.db, attempt, charged.reason, notice)
    await recordCharge(ctx.db, attempt.id, plan.purchaseId, charged.paymentIntentId)
    // The webhook credits it; if none comes, the attempt is looked at again after a while.
    await retryAttemptLater(ctx.db, attempt)
  } catch (error) {
    if (!(error instanceof PaymentServiceFailed)) throw error
    log('warn', 'auto-recharge charge failed; retrying later', { attempt_id: attempt.id, error: errorFields(error) })
    if (attempt.tries >= MAX_TRIES)
      return failAttempt(ctx.db, attempt, 'the payment service could not be reached', notice)
    await retryAttemptLater(ctx.db, attempt)
  }
}

/** Works every attempt that is due, one at a time; returns how many it looked at. */
export async function workRecharges(ctx: RechargeContext): Promise<number> {
  let worked = 0
  for (
    let attempt = await claimAttempt(ctx.db, ctx.leaseSeconds);
    attempt;
    attempt = await claimAttempt(ctx.db, ctx.leaseSeconds)
  ) {
    try {
      await processAttempt(ctx, attempt)
    } catch (error) {
      // Left charging: its lease runs out and it is tried again.
      log('error', 'auto-recharge attempt failed', { attempt_id: attempt.id, error: errorFields(error) })
    }
    worked++
  }
  return worked
}

let timer: ReturnType<typeof setInterval> | undefined
let running: Promise<unknown> | undefined
let again = false

function kick(): void {
  if (running) {
    again = true
    return
  }
  running = (async () => {
    try {
      const env = serverEnv()
      // No payment service set up: nothing can be charged (attempts a debit opens wait for one).
      if (!paymentsKind(env)) return
      const ctx: RechargeContext = {
        db: await getDb(),
        provider: paymentProvider(env),
        caps: { perDay: env.AUTO_RECHARGE_MAX_PER_DAY, perMonth: env.AUTO_RECHARGE_MAX_PER_MONTH },
        leaseSeconds: 120,
      }
      do {
        again = false
        await workRecharges(ctx)
      } while (again)
    } catch (error) {
      log('error', 'auto-recharge worker pass failed', { error: errorFields(error) })
    } finally {
      running = undefined
    }
  })()
}

/** This process's recharge worker: woken by the debit that opened an attempt, and polling for retries every 10 s. */
export function startRechargeWorker(): void {
  if (timer) return
  onRechargeDue(kick)
  timer = setInterval(kick, 10_000)
  timer.unref?.()
  onShutdown(async () => {
    if (timer) clearInterval(timer)
    timer = undefined
    onRechargeDue(() => undefined)
    await running
  })
  kick()
}
