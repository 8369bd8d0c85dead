import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { exportJWK, generateKeyPair, SignJWT, type JWK } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { publishedKeys } from '~/server/providers/identity/published-keys'
import { verifyIdToken } from '~/server/providers/identity/verify-id-token'

/** A loopback stand-in for Google's key endpoint: serves `published`, counts its fetches. */
let server: Server
let url: string
let fetches = 0
let published: JWK[] = []
const maxAge = 3600

const jwkOf = async (kid: string) => {
  const pair = await generateKeyPair('RS256')
  return { pair, jwk: { ...(await exportJWK(pair.publicKey)), kid, alg: 'RS256', use: 'sig' } as JWK }
}

beforeAll(async () => {
  server = createServer((_, response) => {
    fetches++
    response.setHeader('cache-control', `public, max-age=${maxAge}, must-revalidate`)
    response.setHeader('content-type', 'application/json')
    response.end(JSON.stringify({ keys: published }))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/keys`
})
afterAll(() => new Promise((resolve) => server.close(resolve)))

describe('the published signing keys', () => {
  it('are fetched once per max-age, again when a token names a key the copy lacks, and again once stale', async () => {
    const first = await jwkOf('first')
    published = [first.jwk]
    const keysUrl = `${url}?case=rotation`
    const t0 = Date.now()
    await publishedKeys(keysUrl, 'first', t0)
    await publishedKeys(keysUrl, 'first', t0 + 1000)
    expect(fetches).toBe(1)

    // Google rotates: a token with the new kid makes the next lookup fetch, but not more than every 30 s.
    const second = await jwkOf('second')
    published = [first.jwk, second.jwk]
    await publishedKeys(keysUrl, 'second', t0 + 5_000)
    expect(fetches).toBe(1)
    await publishedKeys(keysUrl, 'second', t0 + 31_000)
    expect(fetches).toBe(2)
    await publishedKeys(keysUrl, 'second', t0 + 32_000)
    expect(fetches).toBe(2)

    await publishedKeys(keysUrl, 'first', t0 + 31_000 + maxAge * 1000 + 1)
    expect(fetches).toBe(3)
  })

  it('let verifyIdToken check a token against the set at FIREBASE_JWKS_URL', async () => {
    const { pair, jwk } = await jwkOf('signing')
    published = [jwk]
    const now = Math.floor(Date.now() / 1000)
    const token = await new SignJWT({ email: 'ada@example.com', email_verified: true, auth_time: now - 10 })
      .setProtectedHeader({ alg: 'RS256', kid: 'signing' })
      .setIssuer('https://securetoken.google.com/lodestar-prod')
      .setAudience('lodestar-prod')
      .setSubject('user-1')
      .setIssuedAt(now - 10)
      .setExpirationTime(now + 3600)
      .sign(pair.privateKey)
    const config = {
      projectId: 'lodestar-prod',
      apiKey: 'k',
      authDomain: 'x',
      acceptUnsigned: false,
      jwksUrl: `${url}?case=verify`,
    }
    await expect(verifyIdToken(token, config)).resolves.toMatchObject({ uid: 'user-1', email: 'ada@example.com' })
  })
})
