import * as v from 'valibot'
import { constants } from '#config'
import { maxTokens } from '~/contracts/common'

/** Spec §5's exact wording; the server answers it as the 400 detail and the form shows it too. */
export const invalidThresholdsMessage = 'Invalid thresholds: Must be array with max 3 values'

/** One threshold: a whole, positive number of tokens. */
export const thresholdSchema = v.pipe(
  v.number('Each threshold must be a number'),
  v.integer('Each threshold must be a whole number of tokens'),
  v.minValue(1, 'Each threshold must be at least 1 token'),
  v.maxValue(maxTokens, 'Threshold is too large'),
)

/** Spec §5: an array of at most 3 values. The server's request schema and the dashboard form both use it. */
export const thresholdsSchema = v.pipe(
  v.array(thresholdSchema, invalidThresholdsMessage),
  v.maxLength(constants.maxBalanceThresholds, invalidThresholdsMessage),
  v.description('Up to 3 balances (tokens); an e-mail goes out once each time the balance falls below one.'),
)

/** What the dashboard form checks before POST /api/v1/billing/balance_notification. */
export const balanceNotificationSchema = v.object({
  thresholds: thresholdsSchema,
  email: v.pipe(
    v.string('An e-mail address is required'),
    v.trim(),
    v.nonEmpty('An e-mail address is required'),
    v.email('Enter a valid e-mail address'),
    v.maxLength(254),
  ),
})

export type BalanceNotificationInput = v.InferInput<typeof balanceNotificationSchema>
export type BalanceNotificationBody = v.InferOutput<typeof balanceNotificationSchema>
