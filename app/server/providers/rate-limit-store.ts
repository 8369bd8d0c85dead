import { connectionScope } from '../connection-scope'
import { serverEnv } from '../env'
import { onShutdown } from '../lifecycle'
import { errorFields, log } from '../log'

export interface RateLimitStore {
  /**
   * Adds `amount` (one request, or a request's tokens; negative to give back) to the counter of `bucket` in
   * window number `window`, returning it and the previous window's count.
   */
  hit(bucket: string, window: number, windowMs: number, amount?: number): Promise<{ current: number; previous: number }>
  /** The same counts without adding a hit. */
  peek(bucket: string, window: number): Promise<{ current: number; previous: number }>
}

export function memoryStore(): RateLimitStore {
  const counts = new Map<string, { count: number; expires: number }>()
  let sweptAt = Date.now()
  return {
    async hit(bucket, window, windowMs, amount = 1) {
      const now = Date.now()
      if (now - sweptAt > 60_000) {
        for (const [k, v] of counts) if (v.expires < now) counts.delete(k)
        sweptAt = now
      }
      const key = `${bucket}:${window}`
      const entry = counts.get(key) ?? { count: 0, expires: now + 2 * windowMs }
      entry.count += amount
      counts.set(key, entry)
      return { current: entry.count, previous: counts.get(`${bucket}:${window - 1}`)?.count ?? 0 }
    },
    async peek(bucket, window) {
      const now = Date.now()
      const count = (w: number) => {
        const entry = counts.get(`${bucket}:${w}`)
        return entry && entry.expires >= now ? entry.count : 0
      }
      return { current: count(window), previous: count(window - 1) }
    },
  }
}

/** Shared counters for several instances: INCR with expiry, plus the previous window's count, in one round trip. */
export async function redisStore(url: string): Promise<RateLimitStore> {
  const { Redis } = await import('ioredis')
  const redis = new Redis(url, { maxRetriesPerRequest: 1, enableAutoPipelining: true })
  redis.on('error', (error) => log('warn', 'rate-limit redis error', { error: errorFields(error) }))
  const quit = async () => void (await redis.quit().catch(() => redis.disconnect()))
  // The edge build's client lives for one request (see currentStore); Node's for the process.
  if (connectionScope.perRequest) connectionScope.set('redis', redis, quit)
  else onShutdown(quit, 'connections')
  return {
    async hit(bucket, window, windowMs, amount = 1) {
      const key = `rl:${bucket}:${window}`
      const results = await redis
        .multi()
        .incrby(key, amount)
        .pexpire(key, 2 * windowMs)
        .get(`rl:${bucket}:${window - 1}`)
        .exec()
      if (!results || results.some(([error]) => error)) throw new Error('rate-limit transaction failed')
      return { current: Number(results[0][1]), previous: Number(results[2][1] ?? 0) }
    },
    async peek(bucket, window) {
      const [current, previous] = await redis.mget(`rl:${bucket}:${window}`, `rl:${bucket}:${window - 1}`)
      return { current: Number(current ?? 0), previous: Number(previous ?? 0) }
    },
  }
}

type HeldStore = { url: string | undefined; store: Promise<RateLimitStore> }
let store: HeldStore | undefined

/**
 * The counters: Redis's with REDIS_URL, else this process's memory. The edge build connects to Redis per
 * request (a Worker may not reuse another request's socket), while its in-memory counters stay per isolate.
 */
export function currentStore(): Promise<RateLimitStore> {
  const url = serverEnv().REDIS_URL
  const perRequest = !!url && connectionScope.perRequest
  const held = perRequest ? connectionScope.get<HeldStore>('rate-limit') : store
  if (held?.url === url && held) return held.store
  const next = { url, store: url ? redisStore(url) : Promise.resolve(memoryStore()) }
  if (perRequest) connectionScope.set('rate-limit', next)
  else store = next
  return next.store
}

/** Tests start each file with empty counters. */
export function resetRateLimits(next?: RateLimitStore): void {
  store = next ? { url: serverEnv().REDIS_URL, store: Promise.resolve(next) } : undefined
}
