import { IdentityRefused } from '~/server/domain/refusals'
import type { IdentityConfig } from './config'

/** Spec §9: the identity service's network timeout. */
const TIMEOUT_MS = 30_000

/** The REST API's error messages, as the Firebase SDK's codes (spec §8) the dashboard translates. */
const codes: Record<string, string> = {
  EMAIL_EXISTS: 'email-already-in-use',
  INVALID_EMAIL: 'invalid-email',
  WEAK_PASSWORD: 'weak-password',
  INVALID_OOB_CODE: 'invalid-action-code',
  EXPIRED_OOB_CODE: 'expired-action-code',
  USER_DISABLED: 'user-disabled',
  EMAIL_NOT_FOUND: 'user-not-found',
  OPERATION_NOT_ALLOWED: 'operation-not-allowed',
  TOO_MANY_ATTEMPTS_TRY_LATER: 'too-many-requests',
}

/**
 * Calls of the identity service that carry a password, made by this server so the password policy is
 * checked in our code before the service sees it (the emulator serves no policy of its own).
 */
export async function identityToolkit<T>(config: IdentityConfig, method: string, body: object): Promise<T> {
  const base = config.emulatorUrl
    ? `${config.emulatorUrl}/identitytoolkit.googleapis.com`
    : 'https://identitytoolkit.googleapis.com'
  let response: Response
  try {
    response = await fetch(`${base}/v1/accounts:${method}?key=${encodeURIComponent(config.apiKey)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    })
  } catch (error) {
    throw new IdentityRefused(`identity service unreachable: ${(error as Error).message}`, 'network-request-failed')
  }
  const answer = (await response.json().catch(() => ({}))) as T & { error?: { message?: string } }
  if (!response.ok) {
    // Messages read like `WEAK_PASSWORD : Password should be at least 6 characters`.
    const message = answer.error?.message ?? `status ${response.status}`
    throw new IdentityRefused(`identity service: ${message}`, codes[message.split(' ')[0]] ?? 'internal-error')
  }
  return answer
}
