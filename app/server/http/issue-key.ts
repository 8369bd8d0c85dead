import { serverEnv } from '~/server/env'
import { getDb } from '../db/client'
import { issueKey, type KeyKind } from '../domain/keys'
import { requireCaptcha } from '../providers/captcha'
import { clientAddress } from './client-address'
import { handle, jsonResponse } from './errors'
import { parseForm } from './input'
import { rateLimit } from './rate-limit'
import { captchaForm } from './schemas'

/**
 * POST api_key/trial and api_key/empty. The address limit is checked before the captcha is spent, so a
 * dashboard refused with 429 can retry /empty with the same captcha response, as the spec's fallback does.
 */
export function issueKeyForCaptcha(kind: KeyKind) {
  return handle(async ({ request }: { request: Request }) => {
    const env = serverEnv()
    const { captcha } = await parseForm(request, captchaForm)
    const address = clientAddress(request, env)
    const limit = kind === 'trial' ? env.RATE_LIMIT_TRIAL : env.RATE_LIMIT_EMPTY
    await rateLimit(`${kind}:addr:${address}`, limit.limit, limit.windowMs)
    await requireCaptcha(captcha, address)
    const { apiKey } = await issueKey(await getDb(), kind)
    return jsonResponse({ api_key: apiKey })
  })
}
