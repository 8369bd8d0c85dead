import { randomUUID } from 'node:crypto'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, expect, it, vi } from 'vitest'
import { closeDatabase, getDb, openDatabase, useDatabase, type Database } from '~/server/db/client'
import { refusedStartupParameter } from '~/server/db/postgres-pool'
import { auditLedger, applyEntries, applyEntry } from '~/server/domain/ledger'
import { keyWithBalance, scalar } from '../support/api'
import { hasPgbouncer, startPgbouncer } from '../support/pgbouncer'
import { describeNeeding } from '../support/services'

/**
 * The app through Debian's PgBouncer in transaction mode with its default settings (issue 31): it starts,
 * migrates and keeps the ledger exact. CI installs pgbouncer (.ci/run); elsewhere, without it, the suite skips.
 */
const missing = !process.env.TEST_DATABASE_URL
  ? 'TEST_DATABASE_URL set'
  : !hasPgbouncer()
    ? 'pgbouncer installed (apt-get install pgbouncer)'
    : undefined
describeNeeding(missing, 'through PgBouncer in transaction mode', () => {
  const admin = process.env.TEST_DATABASE_URL!
  const name = `t_pgb_${process.pid}_${Date.now().toString(36)}`
  let bouncer: Awaited<ReturnType<typeof startPgbouncer>>
  let direct: Database
  const saved = { ...process.env }

  beforeAll(async () => {
    direct = await openDatabase({ url: admin, maxConnections: 1 })
    await direct.db.execute(sql.raw(`create database "${name}"`))
    bouncer = await startPgbouncer(admin)
  })
  afterAll(async () => {
    process.env = saved
    await closeDatabase()
    useDatabase(undefined)
    await bouncer?.stop()
    await direct?.db.execute(sql.raw(`drop database if exists "${name}" with (force)`))
    await direct?.close()
  })

  it('starts with DATABASE_POOLER unset: one log line names the setting, then migrations and the ledger work', async () => {
    Object.assign(process.env, { DATABASE_URL: bouncer.url(name), DATABASE_POOL_MAX: '8' })
    delete process.env.DATABASE_POOLER
    useDatabase(undefined)
    const lines: string[] = []
    const spy = vi.spyOn(console, 'log').mockImplementation((line: unknown) => void lines.push(String(line)))
    const spyWarn = vi.spyOn(console, 'error').mockImplementation((line: unknown) => void lines.push(String(line)))
    let db
    try {
      db = await getDb()
    } finally {
      spy.mockRestore()
      spyWarn.mockRestore()
    }
    const refusals = lines.filter((line) => line.includes('DATABASE_POOLER=transaction'))
    expect(refusals).toHaveLength(1)
    expect(JSON.parse(refusals[0])).toMatchObject({ level: 'warn', parameter: 'statement_timeout' })
    expect(await scalar(db, sql`select count(*) from schema_migrations`)).toBeGreaterThan(5)

    const key = await keyWithBalance(db, 100)
    const debit = await applyEntry(db, {
      keyId: key.id,
      amount: -40,
      type: 'consume',
      externalRef: `usage:${randomUUID()}`,
    })
    expect(debit).toMatchObject({ balance: 60 })
  })

  it('keeps a concurrent burst of debits exact: as many as the balance pays, never negative', async () => {
    const db = await getDb()
    const key = await keyWithBalance(db, 50)
    const debits = Array.from({ length: 80 }, () =>
      applyEntry(db, { keyId: key.id, amount: -1, type: 'consume', externalRef: `usage:${randomUUID()}` }).then(
        () => 'applied',
        (error: Error) => (/insufficient/i.test(`${error.name} ${error.message}`) ? 'refused' : String(error)),
      ),
    )
    const batch = applyEntries(
      db,
      Array.from({ length: 20 }, () => ({
        keyId: key.id,
        amount: -1,
        type: 'consume' as const,
        externalRef: `usage:${randomUUID()}`,
      })),
    )
    const [outcomes, batched] = await Promise.all([Promise.all(debits), batch])
    const applied =
      outcomes.filter((o) => o === 'applied').length + batched.filter((o) => o.outcome === 'applied').length
    expect(outcomes.filter((o) => o !== 'applied' && o !== 'refused')).toEqual([])
    expect(applied).toBe(50)
    expect(await scalar(db, sql`select balance from api_keys where id = ${key.id}::uuid`)).toBe(0)
    expect(await auditLedger(db)).toEqual([])
  })

  it('answers a burst of plain queries, more than the pool has connections, each with its own result', async () => {
    const db = await getDb()
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, i) => scalar(db, sql`select ${i}::int + (select count(*) from api_keys) * 0`)),
    )
    expect(answers).toEqual(Array.from({ length: 200 }, (_, i) => i))
  })

  it('answers a burst mixing queries without parameters and with them, none left waiting (the stall of issue 31)', async () => {
    const db = await getDb()
    const within = <T>(answer: Promise<T>) =>
      Promise.race([answer, new Promise<string>((resolve) => setTimeout(() => resolve('no answer in 20 s'), 20_000))])
    // A readiness check's `select 1` and a request's queries with parameters, as a busy instance runs them.
    const answers = await Promise.all(
      Array.from({ length: 1500 }, (_, i) =>
        within(
          i % 3 ? scalar(db, sql`select ${i}::int + (select count(*) from api_keys) * 0`) : scalar(db, sql`select 1`),
        ),
      ),
    )
    expect(answers).toEqual(Array.from({ length: 1500 }, (_, i) => (i % 3 ? i : 1)))
  })

  it('is refused at start-up by the same pooler when told there is none (what issue 31 saw)', async () => {
    const refused = await openDatabase({ url: bouncer.url(name), maxConnections: 1, pooler: 'none' })
    try {
      const error = await refused.db.execute(sql`select 1`).then(
        () => undefined,
        (e: unknown) => e,
      )
      expect(refusedStartupParameter(error)).toBe('statement_timeout')
    } finally {
      await refused.close()
    }
  })

  it('opens with DATABASE_POOLER=transaction without a refusal first', async () => {
    await closeDatabase()
    Object.assign(process.env, { DATABASE_POOLER: 'transaction' })
    const lines: string[] = []
    const spyWarn = vi.spyOn(console, 'error').mockImplementation((line: unknown) => void lines.push(String(line)))
    const spy = vi.spyOn(console, 'log').mockImplementation((line: unknown) => void lines.push(String(line)))
    try {
      const db = await getDb()
      expect(await scalar(db, sql`select 1`)).toBe(1)
    } finally {
      spy.mockRestore()
      spyWarn.mockRestore()
    }
    expect(lines.filter((line) => line.includes('DATABASE_POOLER'))).toEqual([])
  })
})
