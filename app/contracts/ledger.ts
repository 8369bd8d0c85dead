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
