import type { CaptchaProvider } from './types'
import { errorFields, log } from '../../log'

const SITEVERIFY = 'https://challenges.cloudflare.com/turnstile/v0/siteverify'

/**
 * Cloudflare Turnstile, verified server-side; Cloudflare itself refuses a token's second use. The widget is
 * rendered with the call's action, which siteverify reports back: a token made for another call is refused.
 */
export function turnstileProvider(options: {
  secretKey: string
  siteKey?: string
  verifyUrl?: string
}): CaptchaProvider {
  return {
    kind: 'turnstile',
    challenge: async (action) => ({ provider: 'turnstile' as const, site_key: options.siteKey ?? null, action }),
    async verify(response, { action, remoteIp }) {
      if (!response || response.length > 2048) return false
      const form = new URLSearchParams({ secret: options.secretKey, response })
      if (remoteIp) form.set('remoteip', remoteIp)
      try {
        const answer = await fetch(options.verifyUrl ?? SITEVERIFY, {
          method: 'POST',
          body: form,
          signal: AbortSignal.timeout(10_000),
        })
        if (!answer.ok) return false
        const result = (await answer.json()) as { success?: boolean; action?: unknown }
        // A widget rendered without an action gets none back; one with an action must name this call's.
        return (
          result.success === true && (result.action === undefined || result.action === '' || result.action === action)
        )
      } catch (error) {
        log('warn', 'turnstile siteverify failed', { error: errorFields(error) })
        return false
      }
    },
  }
}
