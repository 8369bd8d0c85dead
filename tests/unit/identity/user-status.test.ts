import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { exportPKCS8, generateKeyPair, jwtVerify, type CryptoKey } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { IdentityRefused } from '~/server/domain/refusals'
import type { IdentityConfig } from '~/server/providers/identity/config'
import { userStatus } from '~/server/providers/identity/user-status'

/**
 * Loopback stand-ins for Google's OAuth token endpoint and Identity Toolkit: the token is given only for an
 * assertion signed with the service account's key, and the lookup only with that token.
 */
let server: Server
let base: string
let publicKey: CryptoKey
let privateKeyPem: string
const tokenRequests: string[] = []
const accessToken = 'ya29.loopback-token'
const users: Record<string, { localId: string; disabled?: boolean; validSince?: string }> = {
  alive: { localId: 'alive' },
  off: { localId: 'off', disabled: true },
  reset: { localId: 'reset', validSince: '1796000000' },
}

const read = (request: import('node:http').IncomingMessage) =>
  new Promise<string>((resolve) => {
    let body = ''
    request.on('data', (chunk) => (body += chunk))
    request.on('end', () => resolve(body))
  })

beforeAll(async () => {
  const pair = await generateKeyPair('RS256', { extractable: true })
  publicKey = pair.publicKey
  privateKeyPem = await exportPKCS8(pair.privateKey)
  server = createServer(async (request, response) => {
    const body = await read(request)
    response.setHeader('content-type', 'application/json')
    if (request.url === '/token') {
      const assertion = new URLSearchParams(body).get('assertion') ?? ''
      tokenRequests.push(assertion)
      try {
        const { payload } = await jwtVerify(assertion, publicKey, {
          issuer: 'sessions@demo.iam.gserviceaccount.com',
          audience: `${base}/token`,
        })
        if (payload.scope !== 'https://www.googleapis.com/auth/identitytoolkit') throw new Error('scope')
        return response.end(JSON.stringify({ access_token: accessToken, expires_in: 3600, token_type: 'Bearer' }))
      } catch {
        response.statusCode = 400
        return response.end(JSON.stringify({ error: 'invalid_grant' }))
      }
    }
    if (request.url === '/v1/projects/real-project/accounts:lookup') {
      if (request.headers.authorization !== `Bearer ${accessToken}`) {
        response.statusCode = 401
        return response.end(JSON.stringify({ error: { message: 'UNAUTHENTICATED' } }))
      }
      const { localId } = JSON.parse(body) as { localId: string[] }
      const found = localId.map((id) => users[id]).filter(Boolean)
      return response.end(
        JSON.stringify(found.length ? { kind: 'identitytoolkit#GetAccountInfoResponse', users: found } : {}),
      )
    }
    response.statusCode = 404
    response.end('{}')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => new Promise((resolve) => server.close(resolve)))

const realProject = (): IdentityConfig => ({
  projectId: 'real-project',
  apiKey: 'key',
  authDomain: 'real-project.firebaseapp.com',
  acceptUnsigned: false,
  identityToolkitUrl: base,
  tokenUrl: `${base}/token`,
  serviceAccount: { clientEmail: 'sessions@demo.iam.gserviceaccount.com', privateKey: privateKeyPem },
})

describe("a session's user, asked of the identity service with a service account", () => {
  it('is active, disabled or deleted as the service says, with one token for many lookups', async () => {
    expect(await userStatus(realProject(), 'alive')).toEqual({ status: 'active', tokensValidSince: undefined })
    expect(await userStatus(realProject(), 'off')).toEqual({ status: 'disabled' })
    expect(await userStatus(realProject(), 'gone')).toEqual({ status: 'deleted' })
    // A password changed or reset: tokens issued before validSince (seconds, as a string) are revoked.
    expect(await userStatus(realProject(), 'reset')).toEqual({
      status: 'active',
      tokensValidSince: new Date(1796000000 * 1000),
    })
    expect(tokenRequests).toHaveLength(1)
  })

  it('cannot be asked about without credentials, and an unreachable service is a refusal, not an answer', async () => {
    expect(await userStatus({ ...realProject(), serviceAccount: undefined }, 'alive')).toEqual({ status: 'unknown' })
    const unreachable = await userStatus({ ...realProject(), identityToolkitUrl: 'http://127.0.0.1:9' }, 'alive').catch(
      (error: unknown) => error,
    )
    expect(unreachable).toBeInstanceOf(IdentityRefused)
    expect((unreachable as IdentityRefused).code).toBe('network-request-failed')
  })
})
