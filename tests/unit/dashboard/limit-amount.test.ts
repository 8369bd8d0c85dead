import { describe, expect, it } from 'vitest'
import { parseLimitAmount } from '~/features/dashboard/account/limit-amount'

describe('a spend limit amount as typed', () => {
  it('reads tokens with group separators, and dollars with a point or a comma before the cents', () => {
    expect(parseLimitAmount('1,000,000', 'tokens')).toBe(1_000_000)
    expect(parseLimitAmount('1 000', 'tokens')).toBe(1000)
    expect(parseLimitAmount('5', 'usd')).toBe(5)
    expect(parseLimitAmount('2.50', 'usd')).toBe(2.5)
    expect(parseLimitAmount('2,50', 'usd')).toBe(2.5)
    expect(parseLimitAmount('$1,000.00', 'usd')).toBe(1000)
    expect(parseLimitAmount('1.000,25', 'usd')).toBe(1000.25)
    expect(parseLimitAmount('0.000001', 'usd')).toBe(0.000001)
    expect(parseLimitAmount('1,000', 'usd')).toBe(1000)
    expect(parseLimitAmount('0.001', 'usd')).toBe(0.001)
    expect(parseLimitAmount('five', 'usd')).toBeNaN()
    expect(parseLimitAmount('', 'tokens')).toBeNaN()
  })
})
