import type { Options, Sql } from 'postgres'
import { recordDbQuery } from '../metrics'
import { lostConnection } from './unavailable'

/**
 * Bounds on waiting for Postgres, so a lost database costs a request seconds, not minutes. The driver's
 * defaults wait 30 s for a connection and, after connections die with errors, back off up to 20 s before
 * reconnecting. A server-side statement timeout ends lock waits and runaway statements
 * (`?statement_timeout=…` in DATABASE_URL overrides it; migrations lift it for themselves).
 */
const timeouts = {
  connect_timeout: 2,
  /**
   * No type query on each new connection: nothing here reads or sends Postgres arrays, and a connection cut
   * during that query (a failover, a terminated backend) failed it with nobody awaiting it, an unhandled
   * rejection. One round trip fewer per reconnect, too.
   */
  fetch_types: false,
  /** Seconds before reconnecting after the `retries`-th failed connection: prompt, jittered, at most ½ s. */
  backoff: (retries: number) => Math.min(0.5, 0.02 * 2 ** retries) * (0.5 + Math.random() / 2),
} satisfies Options<never>

/** Sent at start-up to a direct connection; a transaction pooler refuses it (see `poolerOptions`). */
const STATEMENT_TIMEOUT_MS = 4_000

/** Which pooler sits between the app and Postgres: none, or one that hands out a connection per transaction. */
export type Pooler = 'none' | 'transaction'

/**
 * Driver settings for what sits in front of Postgres. A transaction pooler (PgBouncer `pool_mode =
 * transaction`) refuses start-up parameters it does not know, statement_timeout among them, and gives each
 * transaction a different server connection: a named prepared statement made on one is missing on the next.
 * So there the timeout comes from the database role (README "Deploying at scale") and statements are unnamed.
 */
export function poolerOptions(pooler: Pooler): Options<never> {
  if (pooler === 'transaction') return { prepare: false }
  return { connection: { statement_timeout: STATEMENT_TIMEOUT_MS } }
}

/** Whether `error` is a pooler refusing a start-up parameter (PgBouncer: `unsupported startup parameter: …`). */
export function refusedStartupParameter(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; e && depth < 8; e = (e as { cause?: unknown }).cause, depth++) {
    const match = /unsupported startup parameter:\s*(\w+)/.exec(String((e as { message?: unknown }).message ?? ''))
    if (match) return match[1]
  }
  return undefined
}

/**
 * Keeps `query` alone on its connection until answered. postgres-js pipelines top-level queries: a
 * parameterless one (a simple Query) and, behind it, an unnamed one with parameters sent as Parse + Describe +
 * Flush. PgBouncer in transaction mode (1.18) hands the server back at the first ReadyForQuery with the second
 * exchange still open on it, whose answer never comes: the connection and all queued on it wait forever
 * (issue 31). Inside a transaction the pooler keeps the server, so pipelining there stays. The driver's
 * `onexecute` answering false marks the connection busy; `max_pipeline: 0` would also stop `begin` reserving one.
 */
function alone<T>(query: T): T {
  const options = (query as { options?: Record<string, unknown> }).options
  if (options) (query as { options: Record<string, unknown> }).options = { ...options, onexecute: () => false }
  return query
}

/**
 * A postgres-js client whose pool is replaced as soon as one of its connections is lost (backend
 * terminated, reset, failover). postgres-js 3.4.9 reuses a connection object across reconnects, and
 * when the connection dies with a write still buffered it keeps that stale buffer: every later
 * reconnect of the object then hangs in start-up until `connect_timeout`, forever (porsager/postgres
 * #1193, #1208). A fresh pool has none of that state; the retired one finishes what it was running and
 * is closed. Callers (drizzle) hold this one stable object.
 */
export function resilientPostgres(
  connect: (options: Options<never>) => Sql,
  options: Options<never>,
  pooler: Pooler = 'none',
): { client: Sql; close(): Promise<void> } {
  const open = () => connect({ ...options, ...timeouts, ...poolerOptions(pooler) })
  let current = open()
  let closed = false
  const retiring = new Set<Promise<void>>()

  const retire = (pool: Sql, error: unknown) => {
    if (closed || pool !== current || !lostConnection(error)) return
    current = open()
    // drizzle set its parsers and serializers on the first pool's options; every pool needs them.
    Object.assign(current.options.parsers, pool.options.parsers)
    Object.assign(current.options.serializers, pool.options.serializers)
    const ending = pool.end({ timeout: 5 }).catch(() => {})
    retiring.add(ending)
    void ending.then(() => retiring.delete(ending))
  }

  /** Watches a query's outcome without running it early (postgres-js queries start when awaited). */
  const watched = <T>(pool: Sql, query: T): T => {
    recordDbQuery(1)
    Promise.prototype.then.call(
      query,
      () => recordDbQuery(-1),
      (error: unknown) => {
        recordDbQuery(-1)
        retire(pool, error)
      },
    )
    return query
  }

  const sent = pooler === 'transaction' ? alone : <T>(query: T) => query
  const client = new Proxy(current, {
    get(_, name) {
      const pool = current
      if (name === 'unsafe') return (...args: Parameters<Sql['unsafe']>) => watched(pool, sent(pool.unsafe(...args)))
      if (name === 'begin') return (...args: [never]) => watched(pool, pool.begin(...args))
      const value = Reflect.get(pool, name)
      return typeof value === 'function' ? value.bind(pool) : value
    },
    apply(_, __, args: Parameters<Sql>) {
      const pool = current
      return watched(pool, sent(pool(...args)))
    },
  })

  return {
    client,
    async close() {
      closed = true
      await Promise.all([current.end({ timeout: 5 }), ...retiring])
    },
  }
}
