import type { CaptchaProvider } from './types'
import { errorFields, log } from '../../log'

const SITEVERIFY = 'https://challenges.cloudflare.com/turnstile/v0/siteverify'

/** Cloudflare Turnstile, verified server-side; Cloudflare itself refuses a token's second use. */
export function turnstileProvider(options: {
  secretKey: string
  siteKey?: string
  verifyUrl?: string
}): CaptchaProvider {
  return {
    kind: 'turnstile',
    challenge: async () => ({ provider: 'turnstile' as const, site_key: options.siteKey ?? null }),
    async verify(response, remoteIp) {
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
        const result = (await answer.json()) as { success?: boolean }
        return result.success === true
      } catch (error) {
        log('warn', 'turnstile siteverify failed', { error: errorFields(error) })
        return false
      }
    },
  }
}
