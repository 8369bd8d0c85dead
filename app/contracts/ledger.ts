/** The kinds of ledger entry (spec §4's transaction types, plus refund and adjustment), shared by the table and the answers. */
export const ledgerEntryTypes = [
  'trial',
  'purchase',
  'consume',
  'transfer_in',
  'transfer_out',
  'refund',
  'adjustment',
] as const
export type LedgerEntryType = (typeof ledgerEntryTypes)[number]

/**
 * Why an entry that is neither plain usage nor a purchase was made, read from the event it names: tokens a
 * streamed answer reserved and did not use, a failed request's tokens given back, a payment refunded or
 * disputed, a debt paid from a credit.
 */
export const transactionReasons = [
  'unused_reservation',
  'failed_request',
  'payment_refund',
  'dispute',
  'debt_settled',
] as const
export type TransactionReason = (typeof transactionReasons)[number]

/** Products whose debits are reservations made as a streamed answer runs (`TokenMeter`), settled at its end. */
const reservingProducts = new Set(['deepsearch', 'reader'])

export function transactionReasonOf(externalRef: string, product: string | null): TransactionReason | null {
  if (externalRef.startsWith('usage-reversal:'))
    return product && reservingProducts.has(product) ? 'unused_reservation' : 'failed_request'
  if (externalRef.startsWith('refund:')) return 'payment_refund'
  if (externalRef.startsWith('dispute:')) return 'dispute'
  if (externalRef.startsWith('debt:')) return 'debt_settled'
  return null
}
