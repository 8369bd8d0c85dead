import { serverEnv, type ServerEnv } from '~/server/env'
import { getDb } from '../../db/client'
import { altchaProvider } from './altcha'
import { turnstileProvider } from './turnstile'
import type { CaptchaProvider } from './types'

export type { CaptchaProvider } from './types'

let cached: { env: ServerEnv; provider: CaptchaProvider } | undefined

/** Turnstile when its secret is configured, ALTCHA otherwise. */
export function captchaProvider(env = serverEnv()): CaptchaProvider {
  if (cached?.env === env) return cached.provider
  const provider = env.TURNSTILE_SECRET_KEY
    ? turnstileProvider({
        secretKey: env.TURNSTILE_SECRET_KEY,
        siteKey: env.TURNSTILE_SITE_KEY,
        verifyUrl: env.TURNSTILE_VERIFY_URL,
      })
    : altchaProvider(getDb, { secret: env.CAPTCHA_SECRET, difficulty: env.CAPTCHA_DIFFICULTY })
  cached = { env, provider }
  return provider
}
