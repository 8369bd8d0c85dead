import { sql } from 'drizzle-orm'
import { openDatabase, type Database } from '~/server/db/client'
import { migrate } from '~/server/db/migrate'

/**
 * A fresh, migrated database for one test file: a new database on the real Postgres when
 * TEST_DATABASE_URL is set (so races are real), otherwise an in-memory PGlite.
 */
export async function createTestDatabase(
  options: { maxConnections?: number } = {},
): Promise<Database & { isPostgres: boolean }> {
  const adminUrl = process.env.TEST_DATABASE_URL
  if (!adminUrl) {
    const database = await openDatabase({})
    await migrate(database.db)
    return { ...database, isPostgres: false }
  }
  const name = `t_${process.pid}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`
  const admin = await openDatabase({ url: adminUrl, maxConnections: 1 })
  await admin.db.execute(sql.raw(`create database "${name}"`))
  const url = new URL(adminUrl)
  url.pathname = `/${name}`
  const database = await openDatabase({ url: url.toString(), maxConnections: options.maxConnections ?? 20 })
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
