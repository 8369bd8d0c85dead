import { rateLimitTiers, type RateLimitedApi } from '../../../app.config'
import { serverEnv } from '~/server/env'
import { onShutdown } from '../lifecycle'
import { RateLimited } from '../domain/refusals'
import { errorFields, log } from '../log'

/** Adds one hit to the counter of `bucket` in window number `window`, returning it and the previous window's count. */
export interface RateLimitStore {
  hit(bucket: string, window: number, windowMs: number): Promise<{ current: number; previous: number }>
}

export function memoryStore(): RateLimitStore {
  const counts = new Map<string, { count: number; expires: number }>()
  let sweptAt = Date.now()
  return {
    async hit(bucket, window, windowMs) {
      const now = Date.now()
      if (now - sweptAt > 60_000) {
        for (const [k, v] of counts) if (v.expires < now) counts.delete(k)
        sweptAt = now
      }
      const key = `${bucket}:${window}`
      const entry = counts.get(key) ?? { count: 0, expires: now + 2 * windowMs }
      entry.count++
      counts.set(key, entry)
      return { current: entry.count, previous: counts.get(`${bucket}:${window - 1}`)?.count ?? 0 }
    },
  }
}

/** Shared counters for several instances: INCR with expiry, plus the previous window's count, in one round trip. */
export async function redisStore(url: string): Promise<RateLimitStore> {
  const { Redis } = await import('ioredis')
  const redis = new Redis(url, { maxRetriesPerRequest: 1, enableAutoPipelining: true })
  redis.on('error', (error) => log('warn', 'rate-limit redis error', { error: errorFields(error) }))
  onShutdown(async () => void (await redis.quit().catch(() => redis.disconnect())), 'connections')
  return {
    async hit(bucket, window, windowMs) {
      const key = `rl:${bucket}:${window}`
      const results = await redis.multi().incr(key).pexpire(key, 2 * windowMs).get(`rl:${bucket}:${window - 1}`).exec()
      if (!results || results.some(([error]) => error)) throw new Error('rate-limit transaction failed')
      return { current: Number(results[0][1]), previous: Number(results[2][1] ?? 0) }
    },
  }
}

let store: { url: string | undefined; store: Promise<RateLimitStore> } | undefined

function currentStore(): Promise<RateLimitStore> {
  const url = serverEnv().REDIS_URL
  if (store?.url === url && store) return store.store
  const next = { url, store: url ? redisStore(url) : Promise.resolve(memoryStore()) }
  store = next
  return next.store
}

/** Tests start each file with empty counters. */
export function resetRateLimits(next?: RateLimitStore): void {
  store = next ? { url: serverEnv().REDIS_URL, store: Promise.resolve(next) } : undefined
}

/**
 * Sliding-window counter: this window's hits plus the previous window's, weighted by how much of it still
 * overlaps the sliding window. Throws 429 with Retry-After past `limit`. A store outage lets requests
 * through (logged): losing sign-ups to a cache failure is worse than a few extra keys.
 */
export async function rateLimit(bucket: string, limit: number, windowMs: number): Promise<void> {
  const now = Date.now()
  const window = Math.floor(now / windowMs)
  let counts: { current: number; previous: number }
  try {
    counts = await (await currentStore()).hit(bucket, window, windowMs)
  } catch (error) {
    log('warn', 'rate-limit store unavailable, request allowed', { error: errorFields(error) })
    return
  }
  const elapsed = (now % windowMs) / windowMs
  const estimate = counts.previous * (1 - elapsed) + counts.current
  if (estimate > limit) throw new RateLimited((windowMs - (now % windowMs)) / 1000)
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

export async function limitKey(api: RateLimitedApi, key: { id: string; email: string | null; speedLevel: number }): Promise<void> {
  if (serverEnv().RATE_LIMIT_KEYS === 'off') return
  const limit = limitFor(api, tierOf(key))
  if (limit !== null) await rateLimit(`${api}:key:${key.id}`, limit, 60_000)
}
