import type { Db } from '../../db/types'
import type { AuditBy } from '../../domain/audit'
import { billingProfileOf } from '../../domain/auto-recharge'
import {
  attachSetupSession,
  createCardSetup,
  expireCardSetup,
  saveSetupCard,
  type CardSetupRow,
} from '../../domain/card-setups'
import type { ApiKey } from '../../domain/keys'
import type { Pack } from '~/contracts/catalogue'
import type { PaymentProvider } from '../../providers/payments/types'
import { kickRecharges } from './recharge-signal'

/**
 * Auto-recharge with a card alone: a setup row for the key (the pack and threshold to turn on), then the
 * service's setup-mode checkout for it. Nothing is charged until a debit crosses the threshold.
 */
export async function startCardSetup(
  db: Db,
  provider: PaymentProvider,
  key: ApiKey,
  request: { pack: Pack; threshold: number; email?: string; successUrl: string; cancelUrl: string },
): Promise<{ url: string }> {
  const setup = await createCardSetup(db, {
    keyId: key.id,
    provider: provider.kind,
    priceId: request.pack.price_id,
    threshold: request.threshold,
  })
  const profile = await billingProfileOf(db, key.id)
  const session = await provider.createCardSetup({
    setupId: setup.id,
    keyId: key.id,
    currency: request.pack.currency,
    email: request.email,
    customerId: profile?.provider === provider.kind ? (profile.customerId ?? undefined) : undefined,
    successUrl: request.successUrl,
    cancelUrl: request.cancelUrl,
  })
  await attachSetupSession(db, setup.id, session.id)
  return { url: session.url }
}

export type SetupOutcome = 'saved' | 'already' | 'pending' | 'closed'

/**
 * A setup's card saved if the service says its session completed with a succeeded setup intent: the card
 * is the service's record of it, not anything an event carries. Once, whoever asks.
 */
export async function fulfilSetup(
  db: Db,
  by: AuditBy,
  provider: PaymentProvider,
  setup: CardSetupRow,
): Promise<SetupOutcome> {
  if (setup.status === 'saved') return 'already'
  if (setup.status === 'expired' || !setup.checkoutSessionId) return 'closed'
  const facts = await provider.setupFacts(setup.checkoutSessionId)
  if (facts.status === 'expired') {
    await expireCardSetup(db, setup.id)
    return 'closed'
  }
  if (facts.status !== 'complete' || facts.setupStatus !== 'succeeded' || !facts.card || !facts.customerId)
    return 'pending'
  const saved = await saveSetupCard(db, by, setup.id, {
    provider: provider.kind,
    customerId: facts.customerId,
    email: facts.email,
    card: facts.card,
  })
  if (saved.outcome === 'saved' && saved.opened) kickRecharges()
  return saved.outcome
}
