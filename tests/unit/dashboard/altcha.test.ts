import { createChallenge, verifySolution } from 'altcha-lib/v1'
import { describe, expect, it } from 'vitest'
import { challengeExpiry, encodeSolution, solveChallenge } from '~/features/dashboard/captcha/altcha'

describe('ALTCHA solver', () => {
  it('finds the number and encodes a payload the server library accepts', async () => {
    const expires = new Date(Date.now() + 60_000)
    const challenge = await createChallenge({ hmacKey: 'test-secret-of-enough-length', maxnumber: 2_000, number: 1_234, expires })
    const number = await solveChallenge(challenge)
    expect(number).toBe(1_234)
    expect(await verifySolution(encodeSolution(challenge, number!, 5), 'test-secret-of-enough-length')).toBe(true)
  })

  it('reads the expiry from the salt', () => {
    expect(challengeExpiry('abc?expires=1700000000&')).toBe(1_700_000_000_000)
    expect(challengeExpiry('abc&')).toBeUndefined()
  })

  it('stops when aborted', async () => {
    const challenge = await createChallenge({ hmacKey: 'k', maxnumber: 1_000_000, number: 999_999 })
    const controller = new AbortController()
    controller.abort()
    expect(await solveChallenge(challenge, controller.signal)).toBeUndefined()
  })
})
