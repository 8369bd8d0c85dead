/**
 * Inputs of the dashboard's server functions: the REST call's own fields, plus the key the dashboard
 * holds (without it the server reads the `apiKey` cookie). Same field names and checks as the REST call.
 */
import * as v from 'valibot'
import {
  balanceNotificationBody,
  paginatedTransactionQuery,
  totalConsumptionQuery,
  transferBalanceQuery,
} from './billing'
import { presentedKey } from './common'
import { captchaForm } from './keys'

const keyField = { apiKey: v.optional(presentedKey) }

export const keyedInput = v.strictObject(keyField)
export const keyedCaptchaInput = v.strictObject({ ...keyField, ...captchaForm.entries })
export const transactionPageInput = v.strictObject({ ...keyField, ...paginatedTransactionQuery.entries })
export const consumptionInput = v.strictObject({ ...keyField, ...totalConsumptionQuery.entries })
export const transferInput = v.strictObject({ ...keyField, ...transferBalanceQuery.entries, ...captchaForm.entries })
export const balanceNotificationInput = v.strictObject({ ...keyField, ...balanceNotificationBody.entries })
