import { rateLimitTiers, type RateLimitedApi } from '../../../app.config'
import { RateLimited } from '../domain/refusals'
import { serverEnv } from '../env'
import { errorFields, log } from '../log'
import { currentStore } from '../providers/rate-limit-store'

/**
 * Sliding-window counter: this window's hits plus the previous window's, weighted by how much of it still
 * overlaps the sliding window. Throws 429 with Retry-After past `limit`. A store outage lets requests
 * through (logged): losing sign-ups to a cache failure is worse than a few extra keys.
 */
export async function rateLimit(bucket: string, limit: number, windowMs: number): Promise<void> {
  await countAndCheck('hit', bucket, limit, windowMs)
}

/** Throws 429 as `rateLimit` would if this call were counted, without counting it. */
export async function checkRateLimit(bucket: string, limit: number, windowMs: number): Promise<void> {
  await countAndCheck('peek', bucket, limit, windowMs)
}

async function countAndCheck(mode: 'hit' | 'peek', bucket: string, limit: number, windowMs: number): Promise<void> {
  const now = Date.now()
  const window = Math.floor(now / windowMs)
  let counts: { current: number; previous: number }
  try {
    const store = await currentStore()
    counts = mode === 'hit' ? await store.hit(bucket, window, windowMs) : await store.peek(bucket, window)
  } catch (error) {
    log('warn', 'rate-limit store unavailable, request allowed', { error: errorFields(error) })
    return
  }
  const elapsed = (now % windowMs) / windowMs
  const estimate = counts.previous * (1 - elapsed) + counts.current + (mode === 'peek' ? 1 : 0)
  if (estimate > limit) throw new RateLimited((windowMs - (now % windowMs)) / 1000)
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

export async function limitKey(
  api: RateLimitedApi,
  key: { id: string; email: string | null; speedLevel: number },
): Promise<void> {
  if (serverEnv().RATE_LIMIT_KEYS === 'off') return
  const limit = limitFor(api, tierOf(key))
  if (limit !== null) await rateLimit(`${api}:key:${key.id}`, limit, 60_000)
}
