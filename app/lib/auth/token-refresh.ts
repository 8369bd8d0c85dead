/** Spec §9: the token is refreshed 5 minutes before it expires; a failed refresh is retried from 30 s, doubling to 16 min. */
export const REFRESH_BEFORE_EXPIRY_MS = 5 * 60_000
const FIRST_RETRY_MS = 30_000
const LONGEST_RETRY_MS = 16 * 60_000

/** When to refresh a token expiring at `expiresAt` (never in the past). */
export function refreshDelay(expiresAt: number, now = Date.now()): number {
  return Math.max(0, expiresAt - REFRESH_BEFORE_EXPIRY_MS - now)
}

/** The wait before retry number `attempt` (1, 2, …) of a failed refresh. */
export function retryDelay(attempt: number): number {
  return Math.min(LONGEST_RETRY_MS, FIRST_RETRY_MS * 2 ** Math.max(0, attempt - 1))
}

/** Spec §8: these end the sign-in instead of being retried. */
export function endsSignIn(code: string | undefined): boolean {
  return code === 'user-disabled' || code === 'user-token-expired'
}
