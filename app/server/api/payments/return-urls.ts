import type { ServerEnv } from '~/server/env'
import { InvalidInput } from '../../domain/refusals'

/**
 * Where the checkout sends the buyer back: pages of this site only, by default the dashboard's Billing tab,
 * which confirms the purchase and shows the balance. "This site" is PUBLIC_BASE_URL and nothing the request
 * says: its Host is whatever a client sends (`Host: evil.example` made the real checkout page an open redirect).
 */
export function returnUrls(
  env: Pick<ServerEnv, 'PUBLIC_BASE_URL'>,
  asked: { success_url?: string; cancel_url?: string },
): { successUrl: string; cancelUrl: string } {
  const base = env.PUBLIC_BASE_URL.replace(/\/$/, '')
  const own = new URL(base).origin
  const check = (url: string | undefined, field: string, fallback: string) => {
    if (url === undefined) return fallback
    if (new URL(url).origin !== own)
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
