import { rateLimitTiers, tokenRateLimits, type RateLimitedApi, type TokenLimitedApi } from '#config'
import { RateLimited } from '../domain/refusals'
import { serverEnv } from '../env'
import { currentStore, type RateLimitStore } from '../providers/rate-limit-store'

/** What a caller may still do in the current window, for the `X-RateLimit-*` headers. */
export interface RateState {
  limit: number
  remaining: number
  /** Seconds until the current window ends (whole, rounded up). */
  resetSeconds: number
  /** Milliseconds until the current window ends (OpenAI's `x-ratelimit-reset-*` durations). */
  resetMs: number
}

/**
 * Sliding-window counter: this window's hits plus the previous window's, weighted by how much of it still
 * overlaps the sliding window. Throws 429 with Retry-After past `limit`. While the shared store (Redis) is
 * away the counts are this process's own (rate-limit-store.ts): limits per instance, never none.
 */
export async function rateLimit(bucket: string, limit: number, windowMs: number): Promise<RateState | undefined> {
  return countAndCheck('hit', bucket, limit, windowMs)
}

/** Throws 429 as `rateLimit` would if this call were counted, without counting it. */
export async function checkRateLimit(bucket: string, limit: number, windowMs: number): Promise<void> {
  await countAndCheck('peek', bucket, limit, windowMs)
}

/**
 * Counts `amount` (a request's tokens) against `limit`; an amount that would pass it is refused and given
 * back, so a large request refused does not also use up the small ones after it.
 */
export async function spendRateLimit(
  bucket: string,
  limit: number,
  windowMs: number,
  amount: number,
): Promise<RateState | undefined> {
  return countAndCheck('spend', bucket, limit, windowMs, amount)
}

async function countAndCheck(
  mode: 'hit' | 'peek' | 'spend',
  bucket: string,
  limit: number,
  windowMs: number,
  amount = 1,
): Promise<RateState | undefined> {
  const now = Date.now()
  const window = Math.floor(now / windowMs)
  const store: RateLimitStore = await currentStore()
  const counts = mode === 'peek' ? await store.peek(bucket, window) : await store.hit(bucket, window, windowMs, amount)
  const elapsed = (now % windowMs) / windowMs
  const estimate = counts.previous * (1 - elapsed) + counts.current + (mode === 'peek' ? amount : 0)
  const resetMs = windowMs - (now % windowMs)
  const state = {
    limit,
    remaining: Math.max(0, Math.floor(limit - estimate)),
    resetSeconds: Math.ceil(resetMs / 1000),
    resetMs,
  }
  if (estimate > limit) {
    if (mode !== 'spend') throw new RateLimited(resetMs / 1000, { ...state, remaining: 0 }, 'requests')
    await store.hit(bucket, window, windowMs, -amount).catch(() => undefined)
    // What is left once the refused amount is given back: a smaller request may still pass.
    const left = Math.max(0, Math.floor(limit - (estimate - amount)))
    throw new RateLimited(resetMs / 1000, { ...state, remaining: left }, 'tokens')
  }
  return state
}

/** Unverified attempts per address and hour: enough for a NAT full of people, too few to hammer the verifier. */
export const UNVERIFIED_ATTEMPTS_PER_HOUR = 60

/**
 * An address-limited call that needs a captcha. Only attempts whose captcha verified count against `limit`,
 * so garbage from one address behind a NAT cannot lock its neighbours out; every attempt counts against a
 * much higher cheap limit. The verified budget is checked before the captcha is spent (a refused caller
 * keeps its answer for the fallback) and counted after; `verify` throws when the captcha fails.
 */
export async function limitVerifiedAttempts(
  bucket: string,
  limit: { limit: number; windowMs: number },
  verify: () => Promise<void>,
): Promise<void> {
  await rateLimit(`${bucket}:attempts`, UNVERIFIED_ATTEMPTS_PER_HOUR, 60 * 60 * 1000)
  await checkRateLimit(bucket, limit.limit, limit.windowMs)
  await verify()
  // Counted once verified; concurrent verified calls that passed the check together are refused here.
  await rateLimit(bucket, limit.limit, limit.windowMs)
}

export type KeyTier = 'free' | 'paid' | 'premium'

/** Spec §6: paid keys have an e-mail; premium keys are paid with speed level 2. */
export function tierOf(key: { email: string | null; speedLevel: number }): KeyTier {
  if (!key.email) return 'free'
  return key.speedLevel === 2 ? 'premium' : 'paid'
}

/** The per-minute limit of `api` for a key of `tier` (or an anonymous caller), from app.config's table. */
export function limitFor(api: RateLimitedApi, tier: KeyTier | 'anonymous'): number | null {
  return rateLimitTiers[api][tier]
}

type KeyLike = { id: string; email: string | null; speedLevel: number }

/**
 * Counts one request of `api` against its per-minute limit: the key's tier, or the client's address when
 * the API takes calls without a key. Answers the state for the `X-RateLimit-*` headers (none when off).
 */
export async function limitKey(api: RateLimitedApi, key: KeyLike): Promise<RateState | undefined> {
  if (serverEnv().RATE_LIMIT_KEYS === 'off') return undefined
  const limit = limitFor(api, tierOf(key))
  return limit === null ? undefined : rateLimit(`${api}:key:${key.id}`, limit, 60_000)
}

/** An anonymous caller's request, counted per client address (its /64 for IPv6). */
export async function limitAddress(api: RateLimitedApi, address: string): Promise<RateState | undefined> {
  const limit = limitFor(api, 'anonymous')
  return limit === null ? undefined : rateLimit(`${api}:addr:${address}`, limit, 60_000)
}

/**
 * Counts a request's tokens against the key tier's tokens per minute (TPM) of `api`, and keeps where the key
 * stands on its caller for the `x-ratelimit-*-tokens` headers (none when limits are off).
 */
export async function limitKeyTokens(
  caller: { tokenRate?: RateState },
  api: TokenLimitedApi,
  key: KeyLike,
  tokens: number,
): Promise<void> {
  if (serverEnv().RATE_LIMIT_KEYS === 'off') return
  caller.tokenRate = await spendRateLimit(`${api}:tpm:${key.id}`, tokenRateLimits[api][tierOf(key)], 60_000, tokens)
}
