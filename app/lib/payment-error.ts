import { msg } from '@lingui/core/macro'
import { useLingui } from '@lingui/react'
import { ApiError } from '~/lib/api-error'

const paymentsUnavailable = msg`Tokens cannot be bought on this server: no payment service is set up.`

/** Whether a payment call was refused because this server has no payment service (501). */
export const isPaymentsUnavailable = (error: unknown) => error instanceof ApiError && error.status === 501

/** The text for a failed payment call; a server without payments says so in the visitor's language. */
export function usePaymentErrorMessage() {
  const { i18n } = useLingui()
  return (error: unknown) =>
    isPaymentsUnavailable(error) ? i18n._(paymentsUnavailable) : error instanceof Error ? error.message : String(error)
}
