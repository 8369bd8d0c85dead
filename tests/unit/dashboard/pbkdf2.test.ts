import { webcrypto } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { pbkdf2Sha256 } from '~/lib/captcha/pbkdf2-sha256'

async function reference(
  password: Uint8Array<ArrayBuffer>,
  salt: Uint8Array<ArrayBuffer>,
  iterations: number,
  keyLength: number,
) {
  const key = await webcrypto.subtle.importKey('raw', password, 'PBKDF2', false, ['deriveBits'])
  return new Uint8Array(
    await webcrypto.subtle.deriveBits({ name: 'PBKDF2', hash: 'SHA-256', salt, iterations }, key, keyLength * 8),
  )
}

describe('captcha PBKDF2-SHA-256', () => {
  it('matches Web Crypto for captcha-sized inputs', async () => {
    for (const [passwordLength, saltLength, iterations, keyLength] of [
      [20, 16, 200, 32],
      [1, 0, 1, 32],
      [64, 51, 3, 48],
      [33, 20, 10, 16],
    ]) {
      const password = webcrypto.getRandomValues(new Uint8Array(passwordLength))
      const salt = webcrypto.getRandomValues(new Uint8Array(saltLength))
      expect(pbkdf2Sha256(password, salt, iterations, keyLength)).toEqual(
        await reference(password, salt, iterations, keyLength),
      )
    }
  })
})
