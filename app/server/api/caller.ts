import type { CaptchaAction } from '~/contracts/keys'
import { getDb } from '../db/client'
import type { Db } from '../db/types'
import { requireActiveKey, requireActiveKeyById, type ApiKey } from '../domain/keys'
import { refuseKeyUse } from '../domain/key-controls'
import { AddressNotAllowed, CaptchaRejected } from '../domain/refusals'
import { addressInRanges } from '~/lib/address-ranges'
import { captchaProvider } from '../providers/captcha'
import type { RateLimitedApi } from '#config'
import type { RequestLogRecord } from './request-log/record'
import { limitAddress, limitKey, type RateState } from './rate-limit'
import { actingKey } from './audit/actor'

/**
 * The call context every operation receives, read from the request by the HTTP edge (app/server/http/
 * caller-of.ts): the request's id, the client's address, the session, and the API key it presented, however
 * it presented it: a REST call as a bearer token (or `api_key` in fe_user's query), a server function in its
 * input or the `apiKey` cookie. Every call of the dashboard API starts from one of these, so a REST route and a
 * server function cannot apply different rules; what the call establishes as it runs (its actor, its rate
 * state) is kept on it.
 */
export interface Caller {
  /** The request's id (`X-Request-Id`): the audit log names it, and a metered call's debit is named after it. */
  readonly requestId: string
  /** The client's address (the last proxy hop under TRUST_PROXY, else the peer's). */
  readonly address: string
  /** What a per-address rate limit counts the address as (an IPv6 address's /64). */
  readonly network: string
  presentedKey: string | undefined
  /** The sign-in session's token (its cookie), if the call carries one. */
  readonly sessionToken: string | undefined
  /** Who the call acts as, once its key or session is known (`actingKey`, `actingUser`): its audit rows name it. */
  actor?: string
  /** The request limit this call was counted against, once it was (for the `X-RateLimit-*` headers). */
  rate?: RateState
  /** The token limit (TPM) this call was counted against, once it was (for the `x-ratelimit-*-tokens` headers). */
  tokenRate?: RateState
  /** A metered call's request log row, opened by its endpoint: the operation notes its model and tokens on it. */
  readonly requestLog?: RequestLogRecord
  /**
   * A line of a batch (/v1/batches), run by the job worker on behalf of the key that created the batch: the
   * key is its id (the worker holds no secret), the per-request limits were counted when the batch was
   * created, and the line's tokens are collected here instead of debited, so its part of the batch is charged
   * (at the batch price) in the transaction that records the part.
   */
  readonly batch?: BatchLineCharges
}

/** What the lines of one part of a batch used, per product and model, before the batch discount. */
export interface BatchLineCharges {
  readonly keyId: string
  /** Tokens of the lines charged so far (a line that fails after its charge has them taken off again). */
  tokens: number
  readonly uses: Map<string, { product: string; model: string; tokens: number }>
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
  if (caller.batch) {
    const key = await requireActiveKeyById(db, caller.batch.keyId)
    actingKey(caller, key)
    refuseKeyUse(key)
    return { db, key }
  }
  const key = await requireActiveKey(db, caller.presentedKey)
  caller.requestLog?.noteKey(db, key.id)
  actingKey(caller, key)
  // The search APIs honour the key's controls; the dashboard stays open to it, so its holder can see why.
  if (api !== 'dashboard') refuseControlledUse(caller, key)
  caller.rate = await limitKey(api, key)
  return { db, key }
}

/**
 * Per-key controls judged from the key row the lookup already brought (no query): its expiry, and the
 * client address (as derived for rate limits, so TRUST_PROXY applies) against its allowed ranges. For the
 * search APIs and any dashboard call that spends the balance (a transfer).
 */
export function refuseControlledUse(caller: Caller, key: ApiKey): void {
  refuseKeyUse(key)
  if (key.allowedNetworks === null) return
  const { address } = caller
  if (!addressInRanges(address, key.allowedNetworks)) throw new AddressNotAllowed(address, key.allowedNetworks)
}

/** A call that may come without a key (the segmenter): limited per client address then, else as `keyOf`. */
export async function optionalKeyOf(caller: Caller, api: RateLimitedApi): Promise<ApiKey | undefined> {
  if (caller.presentedKey !== undefined) return (await keyOf(caller, api)).key
  caller.rate = await limitAddress(api, caller.network)
  return undefined
}

/** Refuses the call unless its captcha response is genuine, unused and issued for `action`. */
export async function passCaptcha(caller: Caller, response: string, action: CaptchaAction): Promise<void> {
  const remoteIp = caller.address
  if (!(await captchaProvider().verify(response, { action, remoteIp }))) throw new CaptchaRejected()
}
