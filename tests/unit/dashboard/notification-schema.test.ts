import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { balanceNotificationSchema, invalidThresholdsMessage } from '~/lib/balance-notification-schema'
import { parseTokenAmount, validateNotificationForm } from '~/features/dashboard/notifications/threshold-input'

const parse = (input: unknown) => v.safeParse(balanceNotificationSchema, input)

describe('balance notification schema', () => {
  it('accepts up to three thresholds and an e-mail', () => {
    const result = parse({ thresholds: [1_000_000, 500_000, 1], email: ' me@example.com ' })
    expect(result.success).toBe(true)
    expect(result.output).toEqual({ thresholds: [1_000_000, 500_000, 1], email: 'me@example.com' })
  })

  it('accepts no thresholds', () => {
    expect(parse({ thresholds: [], email: 'me@example.com' }).success).toBe(true)
  })

  it('refuses a fourth threshold with the spec message', () => {
    const result = parse({ thresholds: [1, 2, 3, 4], email: 'me@example.com' })
    expect(result.success).toBe(false)
    expect(result.issues?.[0].message).toBe(invalidThresholdsMessage)
    expect(invalidThresholdsMessage).toBe('Invalid thresholds: Must be array with max 3 values')
  })

  it('refuses thresholds that are not an array with the spec message', () => {
    expect(parse({ thresholds: 5, email: 'me@example.com' }).issues?.[0].message).toBe(invalidThresholdsMessage)
  })

  it('refuses zero, negative or fractional thresholds', () => {
    expect(parse({ thresholds: [0], email: 'me@example.com' }).success).toBe(false)
    expect(parse({ thresholds: [-1], email: 'me@example.com' }).success).toBe(false)
    expect(parse({ thresholds: [1.5], email: 'me@example.com' }).success).toBe(false)
  })

  it('refuses a missing or malformed e-mail', () => {
    expect(parse({ thresholds: [1] }).success).toBe(false)
    expect(parse({ thresholds: [1], email: 'not-an-address' }).success).toBe(false)
  })
})

describe('notification form', () => {
  it('reads amounts typed with group separators', () => {
    expect(parseTokenAmount('1,000,000')).toBe(1_000_000)
    expect(parseTokenAmount('2 500 000')).toBe(2_500_000)
    expect(parseTokenAmount('ten')).toBeNaN()
  })

  it('ignores blank rows and refuses a fourth threshold with the spec message', () => {
    expect(validateNotificationForm({ thresholds: ['100', '', '200'], email: 'me@example.com' })).toEqual({
      success: true,
      output: { thresholds: [100, 200], email: 'me@example.com' },
    })
    const refused = validateNotificationForm({ thresholds: ['1', '2', '3', '4'], email: 'me@example.com' })
    expect(refused).toEqual({ success: false, errors: { thresholds: invalidThresholdsMessage } })
  })

  it('names the e-mail field when only the address is wrong', () => {
    expect(validateNotificationForm({ thresholds: ['5'], email: 'nope' })).toEqual({
      success: false,
      errors: { email: 'Enter a valid e-mail address' },
    })
  })
})
