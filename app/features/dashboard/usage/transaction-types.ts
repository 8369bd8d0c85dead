import { msg } from '@lingui/core/macro'
import type { MessageDescriptor } from '@lingui/core'
import type { LedgerEntryType as TransactionType } from '~/contracts/ledger'

/** Spec §4 transaction types as people read them. */
export const transactionTypeLabels: Record<TransactionType, MessageDescriptor> = {
  consume: msg`Usage`,
  purchase: msg`Purchase`,
  trial: msg`Trial`,
  transfer_in: msg`Transfer in`,
  transfer_out: msg`Transfer out`,
  refund: msg`Refund`,
  adjustment: msg`Adjustment`,
}
