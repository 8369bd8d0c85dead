import { sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { functions, migrate, type SqlFile } from '~/server/db/migrate'
import { rowsOf } from '~/server/db/rows'
import { testDatabase } from '../support/db'

describe('database migrations', () => {
  const database = testDatabase()

  const checksum = async () => {
    const [row] = rowsOf<{ checksum: string }>(
      await database.db.execute(sql`select checksum from schema_migrations where name = 'function:ledger'`),
    )
    return row?.checksum
  }
  const functionNames = async () =>
    rowsOf<{ proname: string }>(
      await database.db.execute(
        sql`select proname from pg_proc where proname in ('ledger_apply', 'ledger_apply_v2', 'ledger_apply_v3', 'ledger_settle_alerts', 'meter_consume_batch') order by 1`,
      ),
    ).map((r) => r.proname)

  it('creates every table on a fresh database', async () => {
    const tables = rowsOf<{ table_name: string }>(
      await database.db.execute(sql`select table_name from information_schema.tables where table_schema = 'public'`),
    ).map((r) => r.table_name)
    expect(tables).toEqual(expect.arrayContaining(['contact_leads', 'email_outbox', 'schema_migrations']))
  })

  it('installs the ledger functions on a fresh database, and no longer the old metering batch function', async () => {
    // ledger_apply_v2, the previous release's name, is installed beside v3 (a rolling deploy's older instances
    // call it); ledger_apply, the one before, is left alone where that release put it, and a fresh database never had it.
    expect(await functionNames()).toEqual(['ledger_apply_v2', 'ledger_apply_v3', 'ledger_settle_alerts'])
    expect(await checksum()).toMatch(/^[0-9a-f]{64}$/)
  })

  it('applies nothing the second time it runs', async () => {
    expect(await migrate(database.db)).toEqual([])
  })

  it('applies a function file again when its text changes, and again when a rollback restores the old text', async () => {
    const original = await checksum()
    const ledger = functions.find((f) => f.name === 'function:ledger')!
    const changed: SqlFile = {
      ...ledger,
      statements: [...ledger.statements, `COMMENT ON FUNCTION ledger_apply_v3(jsonb, jsonb) IS 'changed'`],
    }
    const comment = async () =>
      rowsOf<{ c: string | null }>(
        await database.db.execute(sql`select obj_description('ledger_apply_v3(jsonb, jsonb)'::regprocedure) as c`),
      )[0].c

    expect(await migrate(database.db, [changed])).toEqual(['function:ledger'])
    expect(await comment()).toBe('changed')
    expect(await checksum()).not.toBe(original)
    expect(await migrate(database.db, [changed])).toEqual([])

    expect(await migrate(database.db)).toEqual(['function:ledger'])
    expect(await checksum()).toBe(original)
  })

  it('keeps the functions of a newer release that migrated the database (a rolling deploy’s older instance)', async () => {
    const ledger = functions.find((f) => f.name === 'function:ledger')!
    const older: SqlFile = {
      ...ledger,
      statements: [...ledger.statements, `COMMENT ON FUNCTION ledger_apply_v3(jsonb, jsonb) IS 'older release'`],
    }
    const before = await checksum()
    await database.db.execute(sql`insert into schema_migrations (name) values ('9999_from_a_newer_release')`)
    try {
      expect(await migrate(database.db, [older])).toEqual([])
      expect(await checksum()).toBe(before)
    } finally {
      await database.db.execute(sql`delete from schema_migrations where name = '9999_from_a_newer_release'`)
    }
  })

  it('installs the functions on a database migrated before function files existed', async () => {
    await database.db.execute(sql`delete from schema_migrations where name like 'function:%'`)
    await database.db.execute(sql`alter table schema_migrations drop column checksum`)
    await database.db.execute(sql`drop function ledger_settle_alerts(uuid, bigint, boolean, jsonb)`)
    expect(await migrate(database.db)).toEqual(['function:ledger', 'function:spend-limits', 'function:webhooks'])
    expect(await functionNames()).toEqual(['ledger_apply_v2', 'ledger_apply_v3', 'ledger_settle_alerts'])
    expect(await migrate(database.db)).toEqual([])
  })
})
