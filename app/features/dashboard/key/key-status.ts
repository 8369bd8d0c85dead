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

/** The meter's scale: the free pack, or the largest pack bought or received, or the balance if it is larger still. */
export function meterScale(balance: number, transactions: readonly Transaction[] = []): number {
  const credits = transactions
    .filter((tx) => tx.type === 'purchase' || tx.type === 'transfer_in')
    .map((tx) => tx.amount)
  return Math.max(freePackTokens, balance, ...credits)
}
