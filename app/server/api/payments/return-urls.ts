import type { ServerEnv } from '~/server/env'
import { InvalidInput } from '../../domain/refusals'

/**
 * Where the checkout sends the buyer back: pages of this site only (anything else would make the checkout an
 * open redirect), by default the dashboard's Billing tab, which confirms the purchase and shows the balance.
 */
export function returnUrls(
  env: Pick<ServerEnv, 'PUBLIC_BASE_URL'>,
  asked: { success_url?: string; cancel_url?: string },
  /** The request's own origin (behind a proxy, or in development, it differs from the public one). */
  requestUrl: string,
): { successUrl: string; cancelUrl: string } {
  const base = env.PUBLIC_BASE_URL.replace(/\/$/, '')
  const own = new URL(base).origin
  const origins = new Set([own, new URL(requestUrl).origin])
  const check = (url: string | undefined, field: string, fallback: string) => {
    if (url === undefined) return fallback
    if (!origins.has(new URL(url).origin))
      throw new InvalidInput([{ loc: ['body', field], msg: `must be a page of ${own}`, type: 'foreign_url' }])
    return url
  }
  return {
    successUrl: check(
      asked.success_url,
      'success_url',
      `${base}/api-dashboard/billing?checkout=success&session={CHECKOUT_SESSION_ID}`,
    ),
    cancelUrl: check(asked.cancel_url, 'cancel_url', `${base}/api-dashboard/billing?checkout=cancelled`),
  }
}
