import type { CaptchaAction } from '~/contracts/keys'
import { getDb } from '../db/client'
import type { Db } from '../db/types'
import { requireActiveKey, type ApiKey } from '../domain/keys'
import { refuseKeyUse } from '../domain/key-controls'
import { AddressNotAllowed, CaptchaRejected } from '../domain/refusals'
import { addressInRanges } from '~/lib/address-ranges'
import { captchaProvider } from '../providers/captcha'
import type { RateLimitedApi } from '../../../app.config'
import { noteRequestKey } from './request-log/record'
import { clientAddress, clientNetwork } from './client-address'
import { limitAddress, limitKey, type RateState } from './rate-limit'
import { actingKey } from './audit/actor'

/**
 * Who is calling: the request (for the client's address) and the API key it presented, however it
 * presented it: a REST call as a bearer token (or `api_key` in fe_user's query), a server function in
 * its input or the `apiKey` cookie. Every call of the dashboard API starts from one of these, so a REST
 * route and a server function cannot apply different rules.
 */
export interface Caller {
  request: Request
  presentedKey: string | undefined
  /** The request limit this call was counted against, once it was (for the `X-RateLimit-*` headers). */
  rate?: RateState
}

const resolved = new WeakMap<Caller, Promise<{ db: Db; key: ApiKey }>>()

/**
 * The caller's key (refused when missing, unknown or revoked), after its per-key rate limit. Looked up
 * once per call however often it is asked for, so a route may check the key before it reads the body.
 */
export function keyOf(caller: Caller, api: RateLimitedApi = 'dashboard'): Promise<{ db: Db; key: ApiKey }> {
  let key = resolved.get(caller)
  if (!key) resolved.set(caller, (key = resolveKey(caller, api)))
  return key
}

async function resolveKey(caller: Caller, api: RateLimitedApi) {
  const db = await getDb()
  const key = await requireActiveKey(db, caller.presentedKey)
  noteRequestKey(db, key.id)
  actingKey(caller.request, key)
  // The search APIs honour the key's controls; the dashboard stays open to it, so its holder can see why.
  if (api !== 'dashboard') refuseControlledUse(caller.request, key)
  caller.rate = await limitKey(api, key)
  return { db, key }
}

/**
 * Per-key controls judged from the key row the lookup already brought (no query): its expiry, and the
 * client address (as derived for rate limits, so TRUST_PROXY applies) against its allowed ranges.
 */
function refuseControlledUse(request: Request, key: ApiKey): void {
  refuseKeyUse(key)
  if (key.allowedNetworks === null) return
  const address = clientAddress(request)
  if (!addressInRanges(address, key.allowedNetworks)) throw new AddressNotAllowed(address, key.allowedNetworks)
}

/** A call that may come without a key (the segmenter): limited per client address then, else as `keyOf`. */
export async function optionalKeyOf(caller: Caller, api: RateLimitedApi): Promise<ApiKey | undefined> {
  if (caller.presentedKey !== undefined) return (await keyOf(caller, api)).key
  caller.rate = await limitAddress(api, clientNetwork(caller.request))
  return undefined
}

/** Refuses the call unless its captcha response is genuine, unused and issued for `action`. */
export async function passCaptcha(caller: Caller, response: string, action: CaptchaAction): Promise<void> {
  const remoteIp = clientAddress(caller.request)
  if (!(await captchaProvider().verify(response, { action, remoteIp }))) throw new CaptchaRejected()
}
