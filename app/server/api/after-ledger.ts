import { kickOutbox } from '../providers/email'
import { kickRecharges } from './payments/recharge-signal'

/**
 * What a committed ledger entry may have left for afterwards: alert mails queued in its transaction, and an
 * auto-recharge attempt it opened. Both are worked outside the debit, so a slow SMTP server or payment
 * service never holds a balance lock.
 */
export function afterLedger(result: { alerts: number; recharges: number }): void {
  if (result.alerts > 0) kickOutbox()
  if (result.recharges > 0) kickRecharges()
}
