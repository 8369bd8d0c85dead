import { msg } from '@lingui/core/macro'
import type { MessageDescriptor } from '@lingui/core'
import type { TransactionReason } from '~/contracts/ledger'

/** What a credit or debit that is not plain usage or a purchase was for, in a sentence. */
export const transactionReasonLabels: Record<TransactionReason, MessageDescriptor> = {
  unused_reservation: msg`Given back: a streamed answer (deep search, reader) reserves tokens as it runs and returns those it did not use.`,
  failed_request: msg`Given back: the request failed and was not answered, so it costs nothing.`,
  payment_refund: msg`Taken back: the payment for these tokens was refunded.`,
  dispute: msg`Taken back: the payment for these tokens is disputed.`,
  debt_settled: msg`Paid toward tokens already spent from a refunded purchase.`,
}
