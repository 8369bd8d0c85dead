import type { SQL } from 'drizzle-orm'
import { PgDialect } from 'drizzle-orm/pg-core'
import type { Db, Tx } from '../db/types'

const dialect = new PgDialect()

type PostgresJsClient = { unsafe(query: string, params: unknown[], options: { prepare: boolean }): Promise<unknown> }

/**
 * Runs a hot-path statement. On postgres-js it goes out as a named prepared statement, so each
 * connection parses and plans it once (drizzle's `execute` sends unnamed ones). Transactions and
 * PGlite use the plain path.
 */
export function runStatement(db: Db | Tx, query: SQL): Promise<unknown> {
  const client = (db as { $client?: Partial<PostgresJsClient> }).$client
  if (typeof client?.unsafe !== 'function') return db.execute(query)
  const { sql, params } = dialect.sqlToQuery(query)
  return client.unsafe(sql, params, { prepare: true })
}
