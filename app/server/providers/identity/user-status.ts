import { importPKCS8, SignJWT } from 'jose'
import { IdentityRefused } from '~/server/domain/refusals'
import type { IdentityConfig } from './config'

/**
 * What the identity service says of a user: there and enabled (with the time before which its tokens are
 * revoked, `validSince`, set by a password change or reset), disabled, gone, or nothing (no credentials to ask with).
 */
export type UserStatus =
  { status: 'active'; tokensValidSince: Date | undefined } | { status: 'disabled' | 'deleted' | 'unknown' }

const TIMEOUT_MS = 10_000
const GOOGLE_TOKEN_URL = 'https://oauth2.googleapis.com/token'
const GOOGLE_IDENTITY_TOOLKIT_URL = 'https://identitytoolkit.googleapis.com'
const SCOPE = 'https://www.googleapis.com/auth/identitytoolkit'

/** The service account's access token, kept until a minute before it expires (per process or isolate). */
let cachedToken: { clientEmail: string; value: string; expiresAt: number } | undefined

/** Google's OAuth for a service account: a JWT signed with its key (RS256, Web Crypto through jose) for a token. */
async function serviceAccountToken(
  account: NonNullable<IdentityConfig['serviceAccount']>,
  tokenUrl: string,
): Promise<string> {
  if (cachedToken?.clientEmail === account.clientEmail && cachedToken.expiresAt > Date.now() + 60_000)
    return cachedToken.value
  const now = Math.floor(Date.now() / 1000)
  const assertion = await new SignJWT({ scope: SCOPE })
    .setProtectedHeader({ alg: 'RS256', typ: 'JWT' })
    .setIssuer(account.clientEmail)
    .setSubject(account.clientEmail)
    .setAudience(tokenUrl)
    .setIssuedAt(now)
    .setExpirationTime(now + 3600)
    .sign(await importPKCS8(account.privateKey, 'RS256'))
  const answer = await call<{ access_token?: string; expires_in?: number }>(tokenUrl, {
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion }).toString(),
  })
  if (!answer.access_token) throw new IdentityRefused('the token service answered no access token', 'internal-error')
  cachedToken = {
    clientEmail: account.clientEmail,
    value: answer.access_token,
    expiresAt: Date.now() + (answer.expires_in ?? 3600) * 1000,
  }
  return answer.access_token
}

async function call<T>(url: string, init: { headers: Record<string, string>; body: string }): Promise<T> {
  let response: Response
  try {
    response = await fetch(url, { method: 'POST', ...init, signal: AbortSignal.timeout(TIMEOUT_MS) })
  } catch (error) {
    throw new IdentityRefused(`identity service unreachable: ${(error as Error).message}`, 'network-request-failed')
  }
  const answer = (await response.json().catch(() => ({}))) as T & { error?: { message?: string } | string }
  if (!response.ok) {
    const message = typeof answer.error === 'string' ? answer.error : answer.error?.message
    throw new IdentityRefused(`identity service: ${message ?? `status ${response.status}`}`, 'internal-error')
  }
  return answer
}

/**
 * Asks the identity service about a user (Identity Toolkit `accounts:lookup`, as the Admin SDK does): with the
 * service account's token, or the emulator's admin credential (`Bearer owner`). Without either it cannot ask.
 * A service that cannot be reached is a refusal (`network-request-failed`), never an answer about the user.
 */
export async function userStatus(config: IdentityConfig, uid: string): Promise<UserStatus> {
  let bearer: string
  if (config.emulatorUrl) bearer = 'owner'
  else if (config.serviceAccount)
    bearer = await serviceAccountToken(config.serviceAccount, config.tokenUrl ?? GOOGLE_TOKEN_URL)
  else return { status: 'unknown' }
  const answer = await call<{ users?: Array<{ localId?: string; disabled?: boolean; validSince?: string }> }>(
    `${config.identityToolkitUrl ?? GOOGLE_IDENTITY_TOOLKIT_URL}/v1/projects/${encodeURIComponent(config.projectId)}/accounts:lookup`,
    {
      headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
      body: JSON.stringify({ localId: [uid] }),
    },
  )
  const user = answer.users?.find((found) => found.localId === uid)
  if (!user) return { status: 'deleted' }
  if (user.disabled) return { status: 'disabled' }
  // Seconds since the epoch, as a string (Identity Toolkit's int64); absent until tokens were first revoked.
  const validSince = Number(user.validSince)
  return { status: 'active', tokensValidSince: validSince > 0 ? new Date(validSince * 1000) : undefined }
}
