import { createServerFn } from '@tanstack/react-start'
import { keyedInput } from '~/contracts/dashboard'
import { autoRechargeInput, checkoutInput, confirmCheckoutInput, rechargeThresholdInput } from '~/contracts/payments'
import { billingDetailsInput } from '~/contracts/billing-details'
import { autoRechargeFor, createCheckoutFor } from '~/server/api/payments/checkout'
import { billingDetailsFor, saveBillingDetailsFor } from '~/server/api/payments/invoices'
import { confirmCheckoutFor, purchasesFor } from '~/server/api/payments/purchases'
import {
  disableAutoRechargeFor,
  rechargeStatusFor,
  rechargeThresholdFor,
} from '~/server/api/payments/recharge-settings'
import { validatorOf } from '~/server/http/input'
import { serverFnCaller } from '~/server/http/server-fn-caller'
import { apiCall } from '~/lib/api-call'

/** Buying tokens from the dashboard: the same operations as /api/v1/checkout_session, /api/v1/auto_recharge and /api/v1/billing/purchases. */

export const startCheckout = createServerFn({ method: 'POST' })
  .middleware([apiCall])
  .validator(validatorOf(checkoutInput))
  .handler(({ data: { apiKey, ...body } }) => createCheckoutFor(serverFnCaller(apiKey), body))

export const confirmCheckout = createServerFn({ method: 'POST' })
  .middleware([apiCall])
  .validator(validatorOf(confirmCheckoutInput))
  .handler(({ data }) => confirmCheckoutFor(serverFnCaller(data.apiKey), data.session_id))

export const fetchPurchases = createServerFn({ method: 'POST' })
  .middleware([apiCall])
  .validator(validatorOf(keyedInput))
  .handler(({ data }) => purchasesFor(serverFnCaller(data.apiKey)))

export const fetchRechargeStatus = createServerFn({ method: 'POST' })
  .middleware([apiCall])
  .validator(validatorOf(keyedInput))
  .handler(({ data }) => rechargeStatusFor(serverFnCaller(data.apiKey)))

export const startAutoRecharge = createServerFn({ method: 'POST' })
  .middleware([apiCall])
  .validator(validatorOf(autoRechargeInput))
  .handler(({ data: { apiKey, ...body } }) => autoRechargeFor(serverFnCaller(apiKey), body))

export const saveRechargeThreshold = createServerFn({ method: 'POST' })
  .middleware([apiCall])
  .validator(validatorOf(rechargeThresholdInput))
  .handler(({ data }) => rechargeThresholdFor(serverFnCaller(data.apiKey), data.threshold))

export const stopAutoRecharge = createServerFn({ method: 'POST' })
  .middleware([apiCall])
  .validator(validatorOf(keyedInput))
  .handler(({ data }) => disableAutoRechargeFor(serverFnCaller(data.apiKey)))

export const fetchBillingDetails = createServerFn({ method: 'POST' })
  .middleware([apiCall])
  .validator(validatorOf(keyedInput))
  .handler(({ data }) => billingDetailsFor(serverFnCaller(data.apiKey)))

export const storeBillingDetails = createServerFn({ method: 'POST' })
  .middleware([apiCall])
  .validator(validatorOf(billingDetailsInput))
  .handler(({ data }) => saveBillingDetailsFor(serverFnCaller(data.apiKey), data.details))
