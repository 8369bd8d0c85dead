import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { migrate } from '~/server/db/migrate'
import { rowsOf } from '~/server/db/migrate'
import { createTestDatabase } from '../support/db'

describe('database migrations', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>
  beforeAll(async () => {
    database = await createTestDatabase()
  })
  afterAll(() => database.close())

  it('creates every table on a fresh database', async () => {
    const tables = rowsOf<{ table_name: string }>(
      await database.db.execute(sql`select table_name from information_schema.tables where table_schema = 'public'`),
    ).map((r) => r.table_name)
    expect(tables).toEqual(expect.arrayContaining(['contact_leads', 'email_outbox', 'schema_migrations']))
  })

  it('applies nothing the second time it runs', async () => {
    expect(await migrate(database.db)).toEqual([])
  })
})
