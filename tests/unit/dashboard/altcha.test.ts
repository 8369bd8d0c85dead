import { createChallenge, verifySolution } from 'altcha-lib'
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2'
import { createChallenge as createV1, verifySolution as verifyV1 } from 'altcha-lib/v1'
import { describe, expect, it } from 'vitest'
import { challengeExpiry, solveToPayload, solveV1 } from '~/lib/captcha/altcha'

const secret = 'test-secret-of-enough-length'
const keySecret = 'test-key-secret-of-enough-length'
const decode = (payload: string) => JSON.parse(Buffer.from(payload, 'base64').toString('utf8'))

describe('ALTCHA solver', () => {
  it('solves a v2 PBKDF2 challenge the way the server verifies it', async () => {
    const expiresAt = Math.floor(Date.now() / 1000) + 600
    const challenge = await createChallenge({
      algorithm: 'PBKDF2/SHA-256',
      cost: 50,
      counter: 40,
      deriveKey,
      expiresAt,
      hmacSignatureSecret: secret,
      hmacKeySignatureSecret: keySecret,
    })
    const payload = await solveToPayload(challenge)
    const { challenge: echoed, solution } = decode(payload!)
    const result = await verifySolution({
      challenge: echoed,
      solution,
      deriveKey,
      hmacSignatureSecret: secret,
      hmacKeySignatureSecret: keySecret,
    })
    expect(result.verified).toBe(true)
    expect(challengeExpiry(challenge)).toBe(expiresAt * 1000)
  })

  it('lets several solvers split a v2 search by start and step', async () => {
    const challenge = await createChallenge({
      algorithm: 'PBKDF2/SHA-256',
      cost: 10,
      counter: 41,
      deriveKey,
      hmacSignatureSecret: secret,
      hmacKeySignatureSecret: keySecret,
    })
    const { solution } = decode((await solveToPayload(challenge, undefined, { start: 1, step: 2 }))!)
    const result = await verifySolution({
      challenge,
      solution,
      deriveKey,
      hmacSignatureSecret: secret,
      hmacKeySignatureSecret: keySecret,
    })
    expect(result.verified).toBe(true)
    expect(solution.counter % 2).toBe(1)
  })

  it('solves a v1 challenge with a payload verifySolution accepts', async () => {
    const challenge = await createV1({
      hmacKey: secret,
      maxnumber: 2_000,
      number: 1_234,
      expires: new Date(Date.now() + 60_000),
    })
    expect(await solveV1(challenge)).toBe(1_234)
    expect(await verifyV1((await solveToPayload(challenge))!, secret)).toBe(true)
  })

  it('reads a v1 expiry from the salt', () => {
    const base = { algorithm: 'SHA-256', challenge: '00', signature: '' }
    expect(challengeExpiry({ ...base, salt: 'abc?expires=1700000000&' })).toBe(1_700_000_000_000)
    expect(challengeExpiry({ ...base, salt: 'abc&' })).toBeUndefined()
  })

  it('stops when aborted', async () => {
    const challenge = await createV1({ hmacKey: 'k', maxnumber: 1_000_000, number: 999_999 })
    const controller = new AbortController()
    controller.abort()
    expect(await solveV1(challenge, controller.signal)).toBeUndefined()
  })
})
