import { createServerFn } from '@tanstack/react-start'
import {
  balanceNotificationInput,
  consumptionInput,
  keyedInput,
  transactionPageInput,
  transferInput,
} from '~/contracts/dashboard'
import {
  balanceNotificationFor,
  consumptionFor,
  refuseInvalidThresholds,
  removeBalanceNotificationFor,
  setBalanceNotificationFor,
  transactionPageFor,
  transferFor,
} from '~/server/api/billing'
import { validatorOf } from '~/server/http/input'
import { serverFnCaller } from '~/server/http/server-fn-caller'
import { apiCall } from '~/lib/api-call'

/**
 * The billing calls for the dashboard: the same operations as /api/v1/billing/*. Reads are POST too,
 * so the key travels in the body and never in a URL.
 */

export const fetchTransactionPage = createServerFn({ method: 'POST' })
  .middleware([apiCall])
  .validator(validatorOf(transactionPageInput))
  .handler(({ data }) => transactionPageFor(serverFnCaller(data.apiKey), data))

export const fetchConsumption = createServerFn({ method: 'POST' })
  .middleware([apiCall])
  .validator(validatorOf(consumptionInput))
  .handler(({ data }) => consumptionFor(serverFnCaller(data.apiKey), data))

export const transferBalance = createServerFn({ method: 'POST' })
  .middleware([apiCall])
  .validator(validatorOf(transferInput))
  .handler(({ data }) => transferFor(serverFnCaller(data.apiKey), data))

export const fetchBalanceNotification = createServerFn({ method: 'POST' })
  .middleware([apiCall])
  .validator(validatorOf(keyedInput))
  .handler(({ data }) => balanceNotificationFor(serverFnCaller(data.apiKey)))

export const saveBalanceNotification = createServerFn({ method: 'POST' })
  .middleware([apiCall])
  .validator(validatorOf(balanceNotificationInput, refuseInvalidThresholds))
  .handler(({ data }) => setBalanceNotificationFor(serverFnCaller(data.apiKey), data))

export const removeBalanceNotification = createServerFn({ method: 'POST' })
  .middleware([apiCall])
  .validator(validatorOf(keyedInput))
  .handler(({ data }) => removeBalanceNotificationFor(serverFnCaller(data.apiKey)))
