import { sql } from 'drizzle-orm'
import { log } from '../log'
import { rowsOf } from './rows'
import type { Db } from './types'

/**
 * Applies the SQL files drizzle-kit generated, then the repeatable ones in `functions/`. They are
 * bundled into the server build (no file system needed at run time, so edge runtimes work too) and
 * applied in name order under an advisory lock, so several instances starting together do not race.
 * A versioned migration runs once; a function file runs again whenever its text changes, so each
 * database function has one readable source instead of a copy per migration that changed it.
 */
const versioned = import.meta.glob<string>('./migrations/*.sql', { query: '?raw', import: 'default', eager: true })
const repeatable = import.meta.glob<string>('./functions/*.sql', { query: '?raw', import: 'default', eager: true })

export interface SqlFile {
  name: string
  statements: string[]
}

const sqlFiles = (files: Record<string, string>, prefix = ''): SqlFile[] =>
  Object.entries(files)
    .map(([path, body]) => ({
      name:
        prefix +
        path
          .split('/')
          .pop()!
          .replace(/\.sql$/, ''),
      statements: body.split('--> statement-breakpoint'),
    }))
    .sort((a, b) => a.name.localeCompare(b.name))

export const migrations = sqlFiles(versioned)
/** Recorded in schema_migrations as `function:<file name>`, with the checksum of the text applied. */
export const functions = sqlFiles(repeatable, 'function:')

const LOCK_ID = 7_441_120

/** Migrates `db`; `functionFiles` lets tests apply a changed text. Returns the names applied. */
export async function migrate(db: Db, functionFiles: SqlFile[] = functions): Promise<string[]> {
  const applied: string[] = []
  await db.transaction(async (tx) => {
    // Waiting for another instance's migration, or a long one, may take longer than a request's statement.
    await tx.execute(sql`set local statement_timeout = 0`)
    await tx.execute(sql`select pg_advisory_xact_lock(${LOCK_ID})`)
    await tx.execute(
      sql`create table if not exists schema_migrations (name text primary key, applied_at timestamptz not null default now())`,
    )
    // Databases migrated before function files existed lack the column.
    await tx.execute(sql`alter table schema_migrations add column if not exists checksum text`)
    const rows = rowsOf<{ name: string; checksum: string | null }>(
      await tx.execute(sql`select name, checksum from schema_migrations`),
    )
    const done = new Map(rows.map((r) => [r.name, r.checksum]))
    const run = async (file: SqlFile) => {
      for (const statement of file.statements) if (statement.trim()) await tx.execute(sql.raw(statement))
      applied.push(file.name)
    }
    for (const migration of migrations) {
      if (done.has(migration.name)) continue
      await run(migration)
      await tx.execute(sql`insert into schema_migrations (name) values (${migration.name})`)
    }
    // A database migrated by a newer release (it has versioned migrations this build lacks) keeps that
    // release's functions: an older instance started during a rolling deploy must not put back its own.
    const known = new Set(migrations.map((m) => m.name))
    const newer = rows.filter((r) => !r.name.startsWith('function:') && !known.has(r.name)).map((r) => r.name)
    if (newer.length > 0) {
      log('warn', 'database migrated by a newer release: its functions are kept as they are', { newer })
      return
    }
    // After the versioned ones, so a function always sees the tables it was written for.
    for (const file of functionFiles) {
      const checksum = await sha256(file.statements.join('--> statement-breakpoint'))
      if (done.get(file.name) === checksum) continue
      await run(file)
      await tx.execute(sql`insert into schema_migrations (name, checksum) values (${file.name}, ${checksum})
        on conflict (name) do update set checksum = excluded.checksum, applied_at = now()`)
    }
  })
  return applied
}

/** Web Crypto rather than node:crypto, which edge runtimes lack. */
async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text))
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('')
}
