import { mutationOptions, queryOptions } from '@tanstack/react-query'
import type { autoRechargeInput } from '~/contracts/payments'
import type * as v from 'valibot'
import { dashboardKeys, toastError } from '../queries'
import {
  confirmCheckout,
  fetchBillingDetails,
  fetchPurchases,
  fetchRechargeStatus,
  saveRechargeThreshold,
  startAutoRecharge,
  startCheckout,
  stopAutoRecharge,
  storeBillingDetails,
} from '../payments.functions'

export const purchasesQuery = (apiKey: string) =>
  queryOptions({
    queryKey: [...dashboardKeys.ofKey(apiKey), 'purchases'],
    queryFn: ({ signal }) => fetchPurchases({ data: { apiKey }, signal }).then((answer) => answer.purchases),
    staleTime: 0,
    retry: false,
  })

export const rechargeStatusQuery = (apiKey: string) =>
  queryOptions({
    queryKey: dashboardKeys.rechargeStatus(apiKey),
    queryFn: ({ signal }) => fetchRechargeStatus({ data: { apiKey }, signal }),
    staleTime: 0,
    retry: false,
  })

/** Back from a checkout: the purchase confirmed (credited now if paid), polled while the payment is still on its way. */
export const checkoutReturnQuery = (apiKey: string, sessionId: string) =>
  queryOptions({
    queryKey: [...dashboardKeys.ofKey(apiKey), 'checkout', sessionId],
    queryFn: ({ signal }) => confirmCheckout({ data: { apiKey, session_id: sessionId }, signal }),
    refetchInterval: (query) => (query.state.data?.status === 'pending' ? 2000 : false),
    staleTime: Infinity,
    retry: false,
  })

/** Starts a checkout and leaves for its page (the service's, or the sandbox's). */
export const checkoutMutation = () =>
  mutationOptions({
    mutationFn: (input: {
      apiKey: string
      price_id: 'price_tokens_1b' | 'price_tokens_11b'
      success_url: string
      cancel_url: string
    }) => startCheckout({ data: input }),
    onSuccess: ({ url }) => window.location.assign(url),
    onError: toastError,
  })

export const autoRechargeMutation = () =>
  mutationOptions({
    mutationFn: (input: v.InferInput<typeof autoRechargeInput>) => startAutoRecharge({ data: input }),
  })

export const thresholdMutation = () =>
  mutationOptions({
    mutationFn: (input: { apiKey: string; threshold: number }) => saveRechargeThreshold({ data: input }),
    onError: toastError,
  })

export const stopRechargeMutation = () =>
  mutationOptions({
    mutationFn: (input: { apiKey: string }) => stopAutoRecharge({ data: input }),
    onError: toastError,
  })

export const billingDetailsQuery = (apiKey: string) =>
  queryOptions({
    queryKey: [...dashboardKeys.ofKey(apiKey), 'billing-details'],
    queryFn: ({ signal }) => fetchBillingDetails({ data: { apiKey }, signal }).then((answer) => answer.details),
    retry: false,
  })

export const billingDetailsMutation = () =>
  mutationOptions({
    mutationFn: (input: { apiKey: string; details: { name: string; address: string; tax_id: string | null } }) =>
      storeBillingDetails({ data: input }),
  })
