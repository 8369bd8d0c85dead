/** Contracts of the key service: captcha challenge, trial and empty keys, key info, revoking. */
import * as v from 'valibot'
import { presentedKey } from './common'

/**
 * What a captcha solution may be spent on: each challenge is issued for one action and refused by the others.
 * Trial and empty keys share `new_key`, so a dashboard refused a trial key (429) gets an empty one with the
 * same answer.
 */
export const captchaActions = ['new_key', 'revoke_key', 'transfer_balance', 'contact_sales', 'claim_key'] as const
export type CaptchaAction = (typeof captchaActions)[number]

export const captchaChallengeQuery = v.strictObject({
  action: v.pipe(
    v.picklist(captchaActions, `must be one of ${captchaActions.join(', ')}`),
    v.description('The call the solution will be sent to; a solution is refused by every other call.'),
  ),
})

export const captchaForm = v.strictObject({
  captcha: v.pipe(
    v.string(),
    v.minLength(1, 'is required'),
    v.maxLength(8192),
    v.description('The captcha widget response (ALTCHA payload or Turnstile token).'),
  ),
})

/** ALTCHA v2 (altcha-lib `createChallenge`): find a counter whose derived key starts with `keyPrefix`. */
export const altchaChallengeV2 = v.object({
  parameters: v.object({
    algorithm: v.string(),
    nonce: v.string(),
    salt: v.string(),
    cost: v.number(),
    keyLength: v.number(),
    keyPrefix: v.string(),
    keySignature: v.optional(v.string()),
    memoryCost: v.optional(v.number()),
    parallelism: v.optional(v.number()),
    expiresAt: v.optional(v.number()),
    data: v.optional(v.record(v.string(), v.union([v.string(), v.number(), v.boolean(), v.null()]))),
  }),
  signature: v.optional(v.string()),
})

/** ALTCHA v1 (altcha-lib/v1): find n with hash(salt + n) === challenge. */
export const altchaChallengeV1 = v.object({
  algorithm: v.string(),
  challenge: v.string(),
  maxnumber: v.optional(v.number()),
  salt: v.string(),
  signature: v.string(),
})

/** With Turnstile configured the widget loads Cloudflare's instead, rendered with this `action`. */
export const turnstileChallenge = v.object({
  provider: v.literal('turnstile'),
  site_key: v.nullable(v.string()),
  action: v.picklist(captchaActions),
})

export const captchaChallengeAnswer = v.union([altchaChallengeV2, altchaChallengeV1, turnstileChallenge])

export const apiKeyAnswer = v.object({ api_key: v.string() })

export const keyInfoQuery = v.strictObject({
  api_key: v.optional(v.pipe(presentedKey, v.description('The key, when not sent as a bearer token.'))),
})

/** Spec §3 key info, plus what the dashboard needs to show which key this is. */
export const keyInfoAnswer = v.object({
  key_id: v.string(),
  key_display: v.string(),
  email: v.nullable(v.string()),
  wallet: v.object({ total_balance: v.number() }),
  metadata: v.object({ speed_level: v.number(), auto_recharge: v.boolean() }),
  created_at: v.string(),
})

export const revokedAnswer = v.object({ detail: v.string() })

export type AltchaChallengeV1 = v.InferOutput<typeof altchaChallengeV1>
export type AltchaChallengeV2 = v.InferOutput<typeof altchaChallengeV2>
export type CaptchaChallenge = v.InferOutput<typeof captchaChallengeAnswer>
export type KeyInfo = v.InferOutput<typeof keyInfoAnswer>
export type ApiKeyAnswer = v.InferOutput<typeof apiKeyAnswer>
