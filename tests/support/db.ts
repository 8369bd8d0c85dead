import { sql } from 'drizzle-orm'
import { afterAll, beforeAll } from 'vitest'
import { createHash } from 'node:crypto'
import { drizzle } from 'drizzle-orm/pglite'
import { openDatabase, type Database } from '~/server/db/client'
import { functions, migrate, migrations } from '~/server/db/migrate'
import { rowsOf } from '~/server/db/rows'
import * as schema from '~/server/db/schema'

/** Names the migrated template database of this set of migrations: another set gets another template. */
const templateName = `t_template_${createHash('sha256')
  .update(JSON.stringify([...migrations, ...functions]))
  .digest('hex')
  .slice(0, 16)}`

/**
 * A migrated database to copy (CREATE DATABASE … TEMPLATE, a file copy) for each test file, made once per set
 * of migrations: some forty files each applying every migration took seconds apiece. Made under another name and
 * renamed when complete, so no file copies half of one; a file that loses the race to make it drops its own.
 */
async function ensureTemplate(admin: Database, adminUrl: string): Promise<void> {
  const exists = async () =>
    rowsOf(await admin.db.execute(sql`select 1 from pg_database where datname = ${templateName}`)).length > 0
  if (await exists()) return
  const making = `${templateName}_${process.pid}_${Date.now().toString(36)}`
  await admin.db.execute(sql.raw(`create database "${making}"`))
  const url = new URL(adminUrl)
  url.pathname = `/${making}`
  const database = await openDatabase({ url: url.toString(), maxConnections: 1 })
  await migrate(database.db)
  await database.close()
  // A closed connection's server process can linger a moment, and a database in use is neither renamed nor copied.
  await admin.db.execute(sql`select pg_terminate_backend(pid) from pg_stat_activity where datname = ${making}`)
  try {
    await admin.db.execute(sql.raw(`alter database "${making}" rename to "${templateName}"`))
  } catch (error) {
    await admin.db.execute(sql.raw(`drop database if exists "${making}" with (force)`))
    if (!(await exists())) throw error
  }
}

/** This worker's migrated PGlite, as the tarball of its data folder (the files of a worker share it). */
let pgliteImage: Promise<Blob> | undefined

/**
 * An in-memory PGlite that starts as a copy of a migrated one: initdb and the migrations ran once per test
 * worker, not per file (about 1.9 s each; the copy loads in about 0.6 s).
 */
async function copyOfMigratedPglite(): Promise<Database> {
  const { PGlite } = await import('@electric-sql/pglite')
  pgliteImage ??= (async () => {
    const client = await PGlite.create()
    await migrate(drizzle(client, { schema }) as unknown as Database['db'])
    const image = await client.dumpDataDir('none')
    await client.close()
    return image
  })()
  pgliteImage.catch(() => (pgliteImage = undefined))
  const client = await PGlite.create({ loadDataDir: await pgliteImage })
  const db = drizzle(client, { schema }) as unknown as Database['db']
  // Nothing left to apply on the copy: this only confirms it, as on Postgres.
  await migrate(db)
  return { db, kind: 'pglite', close: () => client.close() }
}

/**
 * A fresh, migrated database for one test file: a new database on the real Postgres when
 * TEST_DATABASE_URL is set (so races are real), otherwise an in-memory PGlite.
 */
export async function createTestDatabase(
  options: { maxConnections?: number } = {},
): Promise<Database & { isPostgres: boolean }> {
  const adminUrl = process.env.TEST_DATABASE_URL
  if (!adminUrl) return { ...(await copyOfMigratedPglite()), isPostgres: false }
  const name = `t_${process.pid}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`
  const admin = await openDatabase({ url: adminUrl, maxConnections: 1 })
  await ensureTemplate(admin, adminUrl)
  await admin.db.execute(sql.raw(`create database "${name}" template "${templateName}"`))
  const url = new URL(adminUrl)
  url.pathname = `/${name}`
  const database = await openDatabase({ url: url.toString(), maxConnections: options.maxConnections ?? 20 })
  // Nothing left to apply on the template's copy: this only confirms it.
  await migrate(database.db)
  return {
    ...database,
    isPostgres: true,
    async close() {
      await database.close()
      await admin.db.execute(sql.raw(`drop database if exists "${name}" with (force)`))
      await admin.close()
    },
  }
}

/**
 * The test database of a file that tests the database layer itself, without the API: opened before its tests
 * (or its describe block's), closed after them; its fields are there once the tests run (`database.db`).
 */
export function testDatabase(
  options: { maxConnections?: number } = {},
): Awaited<ReturnType<typeof createTestDatabase>> {
  const database = {} as Awaited<ReturnType<typeof createTestDatabase>>
  beforeAll(async () => {
    Object.assign(database, await createTestDatabase(options))
  })
  afterAll(() => database.close?.())
  return database
}
