import { decodeJwt, decodeProtectedHeader, jwtVerify, type JWTPayload } from 'jose'
import { IdentityRefused } from '~/server/domain/refusals'
import type { IdentityConfig } from './config'
import { GOOGLE_KEYS_URL, publishedKeys } from './published-keys'

export type KeySet = Parameters<typeof jwtVerify>[1]

/** Who an ID token proves the caller to be. */
export interface Identity {
  uid: string
  email?: string
  emailVerified: boolean
  name?: string
  picture?: string
  /** Seconds since the epoch when the user last signed in with a credential. */
  authTime: number
  provider?: string
}

/**
 * Checks a Firebase ID token with Web Crypto only (so edge runtimes run it too): RS256 signature against
 * Google's keys (or `keys`, in tests), issuer and audience of our project, expiry and `auth_time` in the past.
 * Unsigned (`alg: none`) tokens pass only from the emulator serving a `demo-` project.
 */
export async function verifyIdToken(
  token: string,
  config: IdentityConfig,
  keys?: KeySet,
  now = Date.now(),
): Promise<Identity> {
  let payload: JWTPayload
  try {
    const header = decodeProtectedHeader(token)
    if (header.alg === 'none') {
      if (!config.acceptUnsigned) throw new IdentityRefused('unsigned token outside the emulator')
      payload = unsignedPayload(token)
    } else {
      payload = (
        await jwtVerify(token, keys ?? (await publishedKeys(config.jwksUrl ?? GOOGLE_KEYS_URL, header.kid)), {
          algorithms: ['RS256'],
          issuer: `https://securetoken.google.com/${config.projectId}`,
          audience: config.projectId,
          currentDate: new Date(now),
          clockTolerance: 5,
        })
      ).payload
    }
  } catch (error) {
    if (error instanceof IdentityRefused) throw error
    throw new IdentityRefused(`ID token rejected: ${(error as Error).message}`)
  }
  return identityOf(payload, config, now)
}

/** The emulator's tokens carry the same claims, unsigned: still our project's, still unexpired (checked below). */
function unsignedPayload(token: string): JWTPayload {
  if (token.split('.')[2]) throw new IdentityRefused('an unsigned token with a signature')
  return decodeJwt(token)
}

function identityOf(payload: JWTPayload, config: IdentityConfig, now: number): Identity {
  const seconds = now / 1000
  const claims = payload as JWTPayload & {
    auth_time?: number
    email?: string
    email_verified?: boolean
    name?: string
    picture?: string
    firebase?: { sign_in_provider?: string }
  }
  // jwtVerify checked these for signed tokens; checked again so the emulator's unsigned ones meet the same rules.
  if (claims.iss !== `https://securetoken.google.com/${config.projectId}`) throw new IdentityRefused('wrong issuer')
  if (claims.aud !== config.projectId) throw new IdentityRefused('wrong audience')
  if (typeof claims.exp !== 'number' || claims.exp < seconds - 5) throw new IdentityRefused('expired')
  if (typeof claims.iat !== 'number' || claims.iat > seconds + 5) throw new IdentityRefused('issued in the future')
  if (typeof claims.auth_time !== 'number' || claims.auth_time > seconds + 5)
    throw new IdentityRefused('auth_time missing or in the future')
  if (typeof claims.sub !== 'string' || !claims.sub || claims.sub.length > 128) throw new IdentityRefused('no subject')
  return {
    uid: claims.sub,
    email: claims.email,
    emailVerified: claims.email_verified === true,
    name: claims.name,
    picture: claims.picture,
    authTime: claims.auth_time,
    provider: claims.firebase?.sign_in_provider,
  }
}
