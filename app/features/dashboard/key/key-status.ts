import type { Transaction } from '~/contracts/billing'
import type { KeyInfo } from '~/contracts/keys'
import { freePackTokens } from '~/lib/format'

/** Spec §6: who holds this key. */
export function keyStatus(info: KeyInfo) {
  const paid = Boolean(info.email)
  return {
    paid,
    premium: paid && info.metadata.speed_level === 2,
    autoChargeEligible: paid || Boolean(info.metadata.auto_recharge),
  }
}

/** What the balance bar is drawn against, so its caption can name it. */
export type ScaleBasis = 'purchase' | 'transfer' | 'free_pack' | 'balance'

/**
 * The meter's scale: the largest of the free pack, the packs bought and transfers received among the recent
 * `transactions`, and the balance itself; `basis` says which one it is (a pack before a transfer before the
 * free pack before the balance, when they are equal).
 */
export function meterScale(
  balance: number,
  transactions: readonly Transaction[] = [],
): { scale: number; basis: ScaleBasis } {
  const largest = (type: Transaction['type']) =>
    Math.max(0, ...transactions.filter((tx) => tx.type === type).map((tx) => tx.amount))
  const candidates: Array<[ScaleBasis, number]> = [
    ['purchase', largest('purchase')],
    ['transfer', largest('transfer_in')],
    ['free_pack', freePackTokens],
    ['balance', balance],
  ]
  const scale = Math.max(...candidates.map(([, tokens]) => tokens))
  return { scale, basis: candidates.find(([, tokens]) => tokens === scale)![0] }
}
