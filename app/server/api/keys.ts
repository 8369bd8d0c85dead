/** The key service's calls (spec §7): captcha challenge, trial and empty keys, key info, revoking. */
import type * as v from 'valibot'
import type { ApiKeyAnswer, CaptchaAction, CaptchaChallenge, KeyInfo, captchaForm } from '~/contracts/keys'
import { getDb } from '../db/client'
import { issueKey, keyInfo, revokeKey, type KeyKind } from '../domain/keys'
import { spendableBalance } from '../domain/organisation-keys'
import { serverEnv } from '../env'
import { captchaProvider } from '../providers/captcha'
import { keyOf, passCaptcha, type Caller } from './caller'
import { limitVerifiedAttempts } from './rate-limit'
import { actingVisitor, auditBy } from './audit/actor'

type CaptchaInput = v.InferOutput<typeof captchaForm>

export function captchaChallenge({ action }: { action: CaptchaAction }): Promise<CaptchaChallenge> {
  return captchaProvider().challenge(action)
}

/**
 * A new trial key (with the free pack) or empty key. The address (or IPv6 /64) limit counts verified
 * captchas only, and is checked before the captcha is spent, so a dashboard refused with 429 can ask for
 * an empty key with the same captcha answer, as the spec's fallback does.
 */
export async function issueKeyFor(caller: Caller, kind: KeyKind, { captcha }: CaptchaInput): Promise<ApiKeyAnswer> {
  const env = serverEnv()
  const limit = kind === 'trial' ? env.RATE_LIMIT_TRIAL : env.RATE_LIMIT_EMPTY
  await limitVerifiedAttempts(`${kind}:addr:${caller.network}`, limit, () => passCaptcha(caller, captcha, 'new_key'))
  actingVisitor(caller)
  const { apiKey } = await issueKey(await getDb(), auditBy(caller), kind)
  return { api_key: apiKey }
}

/** A key on a shared balance shows that balance: what it can spend. */
export async function keyInfoFor(caller: Caller): Promise<KeyInfo> {
  const { db, key } = await keyOf(caller)
  const info = keyInfo(key)
  return key.balanceKeyId ? { ...info, wallet: { total_balance: await spendableBalance(db, key) } } : info
}

/** The balance stays in the ledger but can no longer be spent. */
export async function revokeFor(caller: Caller, { captcha }: CaptchaInput): Promise<{ detail: string }> {
  const { db, key } = await keyOf(caller)
  await passCaptcha(caller, captcha, 'revoke_key')
  await revokeKey(db, auditBy(caller), key.id)
  return { detail: 'API key revoked' }
}
