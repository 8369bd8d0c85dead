import { createLocalJWKSet, exportJWK, generateKeyPair, SignJWT, type JWK } from 'jose'
import { beforeAll, describe, expect, it } from 'vitest'
import { IdentityRefused } from '~/server/domain/refusals'
import type { IdentityConfig } from '~/server/providers/identity/config'
import { verifyIdToken } from '~/server/providers/identity/verify-id-token'

const projectId = 'lodestar-prod'
const production: IdentityConfig = {
  projectId,
  apiKey: 'k',
  authDomain: `${projectId}.firebaseapp.com`,
  acceptUnsigned: false,
}
const emulator: IdentityConfig = {
  projectId: 'demo-lodestar',
  apiKey: 'k',
  authDomain: 'x',
  emulatorUrl: 'http://127.0.0.1:9099',
  acceptUnsigned: true,
}

const now = Math.floor(Date.now() / 1000)
let privateKey: CryptoKey
let otherKey: CryptoKey
let keys: ReturnType<typeof createLocalJWKSet>

beforeAll(async () => {
  const pair = await generateKeyPair('RS256')
  privateKey = pair.privateKey
  otherKey = (await generateKeyPair('RS256')).privateKey
  const jwk: JWK = { ...(await exportJWK(pair.publicKey)), kid: 'key-1', alg: 'RS256', use: 'sig' }
  keys = createLocalJWKSet({ keys: [jwk] })
})

function claims(project = projectId, overrides: Record<string, unknown> = {}) {
  return {
    iss: `https://securetoken.google.com/${project}`,
    aud: project,
    sub: 'user-1',
    iat: now - 60,
    exp: now + 3600,
    auth_time: now - 60,
    email: 'ada@example.com',
    email_verified: true,
    firebase: { sign_in_provider: 'password' },
    ...overrides,
  }
}

const sign = (payload: Record<string, unknown>, key = privateKey) =>
  new SignJWT(payload).setProtectedHeader({ alg: 'RS256', kid: 'key-1' }).sign(key)

/** An emulator-style token: `alg: none` and no signature, as the Auth emulator issues them. */
const unsigned = (payload: Record<string, unknown>) =>
  `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}.`

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error,
  )

describe('ID token verification', () => {
  it('accepts a token signed with a published key for our project, and says who it is', async () => {
    const identity = await verifyIdToken(await sign(claims()), production, keys)
    expect(identity).toMatchObject({
      uid: 'user-1',
      email: 'ada@example.com',
      emailVerified: true,
      provider: 'password',
    })
  })

  it.each([
    ['a wrong issuer', claims(projectId, { iss: 'https://securetoken.google.com/someone-else' })],
    ['a wrong audience', claims(projectId, { aud: 'someone-else' })],
    ['an expired token', claims(projectId, { iat: now - 7200, exp: now - 3600 })],
    ['an auth_time in the future', claims(projectId, { auth_time: now + 600 })],
    ['no subject', claims(projectId, { sub: '' })],
  ])('refuses %s', async (_, payload) => {
    expect(await refusal(verifyIdToken(await sign(payload), production, keys))).toBeInstanceOf(IdentityRefused)
  })

  it('refuses a token signed by a key that is not published', async () => {
    expect(await refusal(verifyIdToken(await sign(claims(), otherKey), production, keys))).toBeInstanceOf(
      IdentityRefused,
    )
  })

  it('refuses a token signed with a shared secret (HS256), whatever it claims', async () => {
    const forged = await new SignJWT(claims())
      .setProtectedHeader({ alg: 'HS256', kid: 'key-1' })
      .sign(new TextEncoder().encode('a-secret-anyone-could-pick-0123456789'))
    expect(await refusal(verifyIdToken(forged, production, keys))).toBeInstanceOf(IdentityRefused)
  })

  it('refuses a forged unsigned (alg: none) token in production mode', async () => {
    expect(await refusal(verifyIdToken(unsigned(claims()), production, keys))).toBeInstanceOf(IdentityRefused)
  })

  it('refuses an unsigned token when the emulator serves a project that is not demo-', async () => {
    const notDemo = { ...emulator, projectId, acceptUnsigned: false }
    expect(await refusal(verifyIdToken(unsigned(claims()), notDemo, keys))).toBeInstanceOf(IdentityRefused)
  })

  it("accepts the emulator's unsigned token for its demo- project, with the same claim checks", async () => {
    const identity = await verifyIdToken(unsigned(claims('demo-lodestar')), emulator, keys)
    expect(identity.uid).toBe('user-1')
    const expired = unsigned(claims('demo-lodestar', { exp: now - 60 }))
    expect(await refusal(verifyIdToken(expired, emulator, keys))).toBeInstanceOf(IdentityRefused)
    const otherProject = unsigned(claims('demo-other'))
    expect(await refusal(verifyIdToken(otherProject, emulator, keys))).toBeInstanceOf(IdentityRefused)
  })

  it('refuses what is not a token at all', async () => {
    expect(await refusal(verifyIdToken('not-a-jwt', production, keys))).toBeInstanceOf(IdentityRefused)
  })
})
