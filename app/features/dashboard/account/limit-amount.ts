import type { SpendLimitUnit } from '~/contracts/spend-limits'
import { parseTokenAmount } from '../notifications/threshold-input'

/**
 * Reads a limit's amount as typed: tokens with or without group separators; dollars with a point or a comma
 * before the cents ("5", "2.50", "2,50", "$1,000.00"). NaN when it is not a number.
 */
export function parseLimitAmount(text: string, unit: SpendLimitUnit): number {
  if (unit === 'tokens') return parseTokenAmount(text)
  let plain = text.replace(/[\s\u00a0\u202f$']/g, '')
  // The last point or comma is the decimal mark, unless three digits follow it after a whole number, as a group
  // separator's do ("1,000" is a thousand dollars, "0.001" a tenth of a cent); the others group.
  const mark = /[.,](\d{1,6})$/.exec(plain)
  const whole = mark ? plain.slice(0, mark.index).replace(/[.,]/g, '') : ''
  const groups = mark && mark[1].length === 3 && !/^0*$/.test(whole)
  plain = mark && !groups ? `${whole}.${mark[1]}` : plain.replace(/[.,]/g, '')
  return /^\d+(\.\d+)?$/.test(plain) ? Number(plain) : Number.NaN
}
