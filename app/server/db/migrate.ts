import { sql } from 'drizzle-orm'
import type { Db } from './types'

/**
 * Applies the SQL files drizzle-kit generated. They are bundled into the server build (no file system
 * needed at run time, so edge runtimes work too) and applied in name order, each once, under an
 * advisory lock so several instances starting together do not race.
 */
const files = import.meta.glob<string>('./migrations/*.sql', { query: '?raw', import: 'default', eager: true })

export const migrations = Object.entries(files)
  .map(([path, body]) => ({ name: path.split('/').pop()!.replace(/\.sql$/, ''), statements: body.split('--> statement-breakpoint') }))
  .sort((a, b) => a.name.localeCompare(b.name))

const LOCK_ID = 7_441_120

export async function migrate(db: Db): Promise<string[]> {
  const applied: string[] = []
  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${LOCK_ID})`)
    await tx.execute(sql`create table if not exists schema_migrations (name text primary key, applied_at timestamptz not null default now())`)
    const rows = await tx.execute<{ name: string }>(sql`select name from schema_migrations`)
    const done = new Set(rowsOf<{ name: string }>(rows).map((r) => r.name))
    for (const migration of migrations) {
      if (done.has(migration.name)) continue
      for (const statement of migration.statements) if (statement.trim()) await tx.execute(sql.raw(statement))
      await tx.execute(sql`insert into schema_migrations (name) values (${migration.name})`)
      applied.push(migration.name)
    }
  })
  return applied
}

/** postgres-js returns an array, PGlite an object with `rows`. */
export function rowsOf<T>(result: unknown): T[] {
  return Array.isArray(result) ? (result as T[]) : ((result as { rows: T[] }).rows ?? [])
}
