import { sql } from 'drizzle-orm'
import { serverEnv } from '~/server/env'
import { connectionScope } from '../connection-scope'
import { onShutdown } from '../lifecycle'
import { migrate } from './migrate'
import { openPglite } from './pglite'
import { log } from '../log'
import { recordDbPoolMax } from '../metrics'
import { refusedStartupParameter, resilientPostgres, type Pooler } from './postgres-pool'
import * as schema from './schema'
import type { Database, Db } from './types'

export type { Database }

/**
 * Opens Postgres at `url` (postgres-js) or, without one, the embedded PGlite in `dataDir` (created if need
 * be). Drivers are imported lazily, and the edge build has no PGlite at all (`pglite.edge.ts`).
 */
export async function openDatabase(options: {
  url?: string
  dataDir?: string
  maxConnections?: number
  /** What sits between the app and Postgres (DATABASE_POOLER); `transaction` for PgBouncer in transaction mode. */
  pooler?: Pooler
}): Promise<Database> {
  if (options.url) {
    const { default: postgres } = await import('postgres')
    const { drizzle } = await import('drizzle-orm/postgres-js')
    const url = options.url
    const { client, close } = resilientPostgres(
      (settings) => postgres(url, settings),
      { max: options.maxConnections ?? 10, onnotice: () => {} },
      options.pooler,
    )
    recordDbPoolMax(options.maxConnections ?? 10)
    const db = drizzle(client, { schema }) as unknown as Db
    return { db, kind: 'postgres', close }
  }
  return openPglite(options.dataDir)
}

/** Twice the CPUs this process may use (navigator.hardwareConcurrency exists on Node 21+ and edge runtimes). */
export function defaultPoolSize(): number {
  const cpus = globalThis.navigator?.hardwareConcurrency
  return Math.max(2, 2 * (Number.isInteger(cpus) && cpus > 0 ? cpus : 1))
}

/** URLs migrated by this isolate: the edge build opens a database per request but migrates it once. */
const migrated = new Set<string>()

/**
 * Set once a pooler refused a start-up parameter with DATABASE_POOLER unset: later opens (the edge build's,
 * per request) go straight to transaction-pooler settings.
 */
let detectedPooler: Pooler | undefined

/** The database (the process's pool on Node, the request's connections in the edge build), migrated on first use. */
export function getDatabase(): Promise<Database> {
  const open = connectionScope.get<Promise<Database>>('database')
  if (open) return open
  const opening = (async () => {
    const env = serverEnv()
    const open = () =>
      openDatabase({
        url: env.DATABASE_URL,
        dataDir: env.DATA_DIR,
        maxConnections: env.DATABASE_POOL_MAX ?? defaultPoolSize(),
        pooler: env.DATABASE_POOLER ?? detectedPooler,
      })
    let database = await open()
    const url = env.DATABASE_URL ?? ''
    if (!(connectionScope.perRequest && migrated.has(url))) {
      // A database unreachable at start-up must not leave this attempt's pool behind: the next request retries.
      const migrateOrClose = (opened: Database) =>
        migrate(opened.db).catch(async (error: unknown) => {
          await opened.close().catch(() => {})
          throw error
        })
      try {
        await migrateOrClose(database)
      } catch (error) {
        const parameter = refusedStartupParameter(error)
        if (!parameter || env.DATABASE_POOLER || detectedPooler) throw error
        detectedPooler = 'transaction'
        log('warn', 'database pooler refused a start-up parameter; using transaction-pooler settings', {
          parameter,
          setting: 'DATABASE_POOLER=transaction',
        })
        database = await open()
        await migrateOrClose(database)
      }
      migrated.add(url)
    }
    if (!connectionScope.perRequest) onShutdown(closeDatabase, 'connections')
    return database
  })().catch((error) => {
    if (connectionScope.get('database') === opening) connectionScope.set('database', undefined)
    throw error
  })
  connectionScope.set('database', opening, closeOpened)
  return opening
}

/** Hands the process a database of the caller's (tests, benchmarks); `undefined` goes back to the default. */
export function useDatabase(database: Database | undefined): void {
  connectionScope.set('database', database ? Promise.resolve(database) : undefined)
}

/** Closes the process's database, if one was opened, so a stopping server can exit. */
export async function closeDatabase(): Promise<void> {
  const open = connectionScope.get<Promise<Database>>('database')
  connectionScope.set('database', undefined)
  if (open) await closeOpened(open)
}

const closeOpened = async (open: Promise<Database>) => (await open.catch(() => undefined))?.close()

export async function getDb(): Promise<Db> {
  return (await getDatabase()).db
}

/** Whether the database answers `select 1` within `timeoutMs` (opening and migrating it first if need be). */
export async function pingDatabase(timeoutMs: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(Object.assign(new Error(`no answer within ${timeoutMs} ms`), { code: 'PING_TIMEOUT' })),
      timeoutMs,
    )
  })
  try {
    const ping = getDb().then((db) => db.execute(sql`select 1`))
    ping.catch(() => {}) // once late, its own failure has no one to tell
    await Promise.race([ping, late])
    return true
  } finally {
    clearTimeout(timer)
  }
}
