/** The key service's calls (spec §7): captcha challenge, trial and empty keys, key info, revoking. */
import type * as v from 'valibot'
import type { ApiKeyAnswer, CaptchaChallenge, KeyInfo, captchaForm } from '~/contracts/keys'
import { getDb } from '../db/client'
import { issueKey, keyInfo, revokeKey, type KeyKind } from '../domain/keys'
import { serverEnv } from '../env'
import { captchaProvider } from '../providers/captcha'
import { keyOf, passCaptcha, type Caller } from './caller'
import { clientAddress } from './client-address'
import { rateLimit } from './rate-limit'

type CaptchaInput = v.InferOutput<typeof captchaForm>

export function captchaChallenge(): Promise<CaptchaChallenge> {
  return captchaProvider().challenge()
}

/**
 * A new trial key (with the free pack) or empty key. The address limit is checked before the captcha is
 * spent, so a dashboard refused with 429 can ask for an empty key with the same captcha answer, as the
 * spec's fallback does.
 */
export async function issueKeyFor(caller: Caller, kind: KeyKind, { captcha }: CaptchaInput): Promise<ApiKeyAnswer> {
  const env = serverEnv()
  const limit = kind === 'trial' ? env.RATE_LIMIT_TRIAL : env.RATE_LIMIT_EMPTY
  await rateLimit(`${kind}:addr:${clientAddress(caller.request, env)}`, limit.limit, limit.windowMs)
  await passCaptcha(caller, captcha)
  const { apiKey } = await issueKey(await getDb(), kind)
  return { api_key: apiKey }
}

export async function keyInfoFor(caller: Caller): Promise<KeyInfo> {
  const { key } = await keyOf(caller)
  return keyInfo(key)
}

/** The balance stays in the ledger but can no longer be spent. */
export async function revokeFor(caller: Caller, { captcha }: CaptchaInput): Promise<{ detail: string }> {
  const { db, key } = await keyOf(caller)
  await passCaptcha(caller, captcha)
  await revokeKey(db, key.id)
  return { detail: 'API key revoked' }
}
