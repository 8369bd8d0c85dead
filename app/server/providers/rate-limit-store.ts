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
  /** Closes its connection, if it has one (a store replaced by another). */
  close?(): Promise<void>
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

/** How long Redis may take to connect before the limits count in this process instead (once, not per call). */
const REDIS_CONNECT_MS = 1000
/** How long one counter update may wait for Redis's answer. */
const REDIS_COMMAND_MS = 500
/** After a failure, how long calls count here without trying Redis (a hung server would cost each call the wait). */
const REDIS_RETRY_MS = 2000

/**
 * While Redis is away the counters live in this process (or isolate): limits per instance rather than shared,
 * but never open and never a wait. Kept across the clients of one process (the edge build makes one per
 * request), so an outage is logged once, when it starts, and once when it ends.
 */
const outage = { down: false, retryAt: 0, fallback: memoryStore() }

function noteDown(error: unknown): void {
  outage.retryAt = Date.now() + REDIS_RETRY_MS
  if (outage.down) return
  outage.down = true
  log('warn', 'rate-limit store unavailable: counting in this process', { error: errorFields(error) })
}

function noteUp(): void {
  if (!outage.down) return
  outage.down = false
  outage.retryAt = 0
  log('info', 'rate-limit store back')
}

/**
 * Shared counters for several instances: INCR with expiry, plus the previous window's count, in one round trip.
 * No call waits on Redis that is not there: its commands are not queued while it is disconnected, each has a
 * timeout, and the client reconnects in the background while the counters fall back to this process's.
 */
export async function redisStore(url: string): Promise<RateLimitStore> {
  const { Redis } = await import('ioredis')
  const redis = new Redis(url, {
    connectTimeout: REDIS_CONNECT_MS,
    commandTimeout: REDIS_COMMAND_MS,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    enableAutoPipelining: true,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
  })
  let closed = false
  // Every failed reconnect emits one; the outage is logged once by noteDown. A closed client's are not news.
  redis.on('error', (error) => closed || noteDown(error))
  redis.on('ready', () => (outage.retryAt = 0))
  const quit = async () => {
    closed = true
    await redis.quit().catch(() => redis.disconnect())
  }
  // The edge build's client lives for one request (see currentStore); Node's for the process.
  if (connectionScope.perRequest) connectionScope.set('redis', redis, quit)
  else onShutdown(quit, 'connections')
  await firstReady(redis)
  const usable = () => redis.status === 'ready' && Date.now() >= outage.retryAt
  const shared: RateLimitStore = {
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
  /** Redis when it is there, else (or when it fails this call) this process's counters. */
  const either =
    <A extends unknown[], R>(use: (store: RateLimitStore, ...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      if (!usable()) return use(outage.fallback, ...args)
      try {
        const result = await use(shared, ...args)
        noteUp()
        return result
      } catch (error) {
        noteDown(error)
        return use(outage.fallback, ...args)
      }
    }
  return {
    close: quit,
    hit: either((store, bucket: string, window: number, windowMs: number, amount?: number) =>
      store.hit(bucket, window, windowMs, amount),
    ),
    peek: either((store, bucket: string, window: number) => store.peek(bucket, window)),
  }
}

/** Resolves once the client is ready, failed to connect, or REDIS_CONNECT_MS passed (whichever comes first). */
async function firstReady(redis: import('ioredis').Redis): Promise<void> {
  if (redis.status === 'ready') return
  let timer: ReturnType<typeof setTimeout> | undefined
  await new Promise<void>((resolve) => {
    const done = () => {
      redis.off('ready', done)
      redis.off('error', done)
      resolve()
    }
    redis.once('ready', done)
    redis.once('error', done)
    timer = setTimeout(() => {
      noteDown(new Error(`no answer from Redis within ${REDIS_CONNECT_MS} ms`))
      done()
    }, REDIS_CONNECT_MS)
  })
  clearTimeout(timer)
}

/** `owned`: made here (closed when replaced), not handed in by a test. */
type HeldStore = { url: string | undefined; store: Promise<RateLimitStore>; owned?: boolean }
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
  // A request of the edge build while Redis is known to be away: no connection attempt to wait for.
  if (perRequest && outage.down && Date.now() < outage.retryAt) return Promise.resolve(outage.fallback)
  const next = { url, store: url ? redisStore(url) : Promise.resolve(memoryStore()), owned: true }
  if (perRequest) connectionScope.set('rate-limit', next)
  else replace(next)
  return next.store
}

/** A replaced store's client stops reconnecting: its errors would otherwise report outages of a store not in use. */
function replace(next: HeldStore | undefined): void {
  const previous = store
  store = next
  if (previous?.owned) void previous.store.then((old) => old.close?.()).catch(() => undefined)
}

/** Tests start each file with empty counters (and no outage remembered). */
export function resetRateLimits(next?: RateLimitStore): void {
  replace(next ? { url: serverEnv().REDIS_URL, store: Promise.resolve(next) } : undefined)
  Object.assign(outage, { down: false, retryAt: 0, fallback: memoryStore() })
}
