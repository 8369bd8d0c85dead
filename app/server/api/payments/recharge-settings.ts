import { eq } from 'drizzle-orm'
import type { RechargeStatus } from '~/contracts/payments'
import { apiKeys } from '../../db/schema'
import { billingProfileOf, disableAutoRecharge, latestAttempt, setRechargeThreshold } from '../../domain/auto-recharge'
import type { Db } from '../../db/types'
import { refuseSharedBalance } from '../../domain/organisation-keys'
import { keyOf, type Caller } from '../caller'
import { paymentProvider, paymentsKind } from './provider'
import { kickRecharges } from './recharge-signal'
import { auditBy } from '../audit/actor'

/** POST /api/v1/auto_recharge/settings?threshold=: a new threshold; below it already, a recharge starts now. */
export async function rechargeThresholdFor(caller: Caller, threshold: number): Promise<RechargeStatus> {
  const { db, key } = await keyOf(caller)
  refuseSharedBalance(key)
  // A threshold starts charges: refused where no payment service is set up.
  paymentProvider()
  if (await setRechargeThreshold(db, auditBy(caller), key.id, threshold)) kickRecharges()
  return rechargeStatusFor(caller)
}

/** DELETE /api/v1/auto_recharge. */
export async function disableAutoRechargeFor(caller: Caller): Promise<RechargeStatus> {
  const { db, key } = await keyOf(caller)
  refuseSharedBalance(key)
  await disableAutoRecharge(db, auditBy(caller), key.id)
  return rechargeStatusFor(caller)
}

/** GET /api/v1/auto_recharge: the key's settings, its card and its last attempt, read fresh. */
export async function rechargeStatusFor(caller: Caller): Promise<RechargeStatus> {
  const { db, key } = await keyOf(caller)
  return rechargeStatusOf(db, key.id)
}

/** The auto-recharge of a balance: a key's own, or an organisation's shared one (its balance row's id). */
export async function rechargeStatusOf(db: Db, keyId: string): Promise<RechargeStatus> {
  const [fresh, profile, attempt] = await Promise.all([
    db
      .select()
      .from(apiKeys)
      .where(eq(apiKeys.id, keyId))
      .then(([row]) => row),
    billingProfileOf(db, keyId),
    latestAttempt(db, keyId),
  ])
  const card = profile?.cardLast4 ? { brand: profile.cardBrand ?? 'card', last4: profile.cardLast4 } : null
  return {
    enabled: fresh?.autoRecharge ?? false,
    threshold: fresh?.autoRechargeThreshold ?? null,
    price_id: profile?.rechargePriceId ?? null,
    eligible: !!profile?.paymentMethodId && profile.provider === paymentsKind(),
    card,
    disabled_reason: fresh?.autoRecharge ? null : (profile?.disabledReason ?? null),
    last_attempt: attempt
      ? {
          status: attempt.status,
          failure: attempt.failure,
          created_at: attempt.createdAt.toISOString(),
          finished_at: attempt.finishedAt?.toISOString() ?? null,
        }
      : null,
  }
}
