import * as v from 'valibot'
import { constants } from '#config'
import { balanceNotificationSchema } from '~/lib/balance-notification-schema'

/** Reads a token amount typed with or without group separators ("1,000,000", "1 000 000", "1.000.000"). */
export function parseTokenAmount(text: string): number {
  const digits = text.replace(/[\s,.'_\u00a0\u202f]/g, '')
  return /^-?\d+$/.test(digits) ? Number(digits) : Number.NaN
}

/** The most thresholds a key may have: the server's rule, so the form can stop at it. */
export const maxThresholds = constants.maxBalanceThresholds

export interface NotificationFormValues {
  thresholds: string[]
  email: string
}

/** Validates the form with the server's schema; blank threshold rows are ignored. */
export function validateNotificationForm(values: NotificationFormValues) {
  const thresholds = values.thresholds.filter((text) => text.trim() !== '').map(parseTokenAmount)
  const result = v.safeParse(balanceNotificationSchema, { thresholds, email: values.email })
  if (result.success) return { success: true as const, output: result.output }
  const errors: { thresholds?: string; email?: string } = {}
  for (const issue of result.issues) {
    const field = issue.path?.[0]?.key === 'email' ? 'email' : 'thresholds'
    errors[field] ??= issue.message
  }
  return { success: false as const, errors }
}
