import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core'
import type * as schema from './schema'

/** The database handle both drivers (PGlite and postgres-js) provide. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0]

/** An open database: its handle, which driver it is, and how to close it. */
export interface Database {
  db: Db
  kind: 'pglite' | 'postgres'
  close(): Promise<void>
}
