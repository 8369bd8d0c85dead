import { randomUUID } from 'node:crypto'
import { sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { auditLedger } from '~/server/domain/ledger'
import { consume } from '~/server/domain/metering'
import { keyWithBalance, scalar, apiDatabase } from '../support/api'
import { outcomeOf } from '../support/outcome'
import { describeWithService } from '../support/services'

const database = apiDatabase({ maxConnections: 20 })

const use = (keyId: string, tokens: number, usageEventId = randomUUID()) =>
  consume(database.db, { keyId, tokens, usageEventId, product: 'embeddings', model: 'embeddings-v3' })
const balanceOf = (id: string) => scalar(database.db, sql`select balance from api_keys where id = ${id}::uuid`)
const entriesSum = (id: string) =>
  scalar(database.db, sql`select coalesce(sum(amount), 0) from ledger_entries where key_id = ${id}::uuid`)

describe('consumption', () => {
  it('debits the same usage event id once (test 4)', async () => {
    const key = await keyWithBalance(database.db, 1000)
    const event = randomUUID()
    const first = await use(key.id, 300, event)
    const second = await use(key.id, 300, event)
    expect(first).toMatchObject({ balance: 700, duplicate: false })
    expect(second).toMatchObject({ balance: 700, duplicate: true, entryId: first.entryId })
    expect(await balanceOf(key.id)).toBe(700)
    expect(await entriesSum(key.id)).toBe(700)
  })

  it('refuses a debit past the balance with 402 and changes nothing', async () => {
    const key = await keyWithBalance(database.db, 5)
    expect(await outcomeOf(use(key.id, 6))).toBe('InsufficientBalance')
    expect(await balanceOf(key.id)).toBe(5)
  })

  it('lets the database itself reject a negative balance, a zero amount and edits of entries (test 5)', async () => {
    const key = await keyWithBalance(database.db, 10)
    const fails = (q: ReturnType<typeof sql>) => expect(database.db.execute(q)).rejects.toThrow()
    await fails(sql`update api_keys set balance = -1 where id = ${key.id}::uuid`)
    await fails(
      sql`insert into ledger_entries (key_id, type, amount, balance_after, external_ref) values (${key.id}::uuid, 'adjustment', 0, 10, ${randomUUID()})`,
    )
    await fails(
      sql`insert into ledger_entries (key_id, type, amount, balance_after, external_ref) values (${key.id}::uuid, 'consume', 5, 10, ${randomUUID()})`,
    )
    await fails(
      sql`insert into ledger_entries (key_id, type, amount, balance_after, external_ref) values (${key.id}::uuid, 'adjustment', -20, -10, ${randomUUID()})`,
    )
    await fails(sql`update ledger_entries set amount = 1 where key_id = ${key.id}::uuid`)
    await fails(sql`delete from ledger_entries where key_id = ${key.id}::uuid`)
    await fails(sql`truncate ledger_entries`)
    expect(await balanceOf(key.id)).toBe(10)
    expect(await entriesSum(key.id)).toBe(10)
  })
})

describeWithService('TEST_DATABASE_URL', 'consumption under concurrency [PG]', () => {
  it('lets exactly 100 of 200 parallel debits of 10 through a balance of 1000 (test 1)', async () => {
    const key = await keyWithBalance(database.db, 1000)
    const statuses = await Promise.all(Array.from({ length: 200 }, () => outcomeOf(use(key.id, 10))))
    expect(statuses.filter((s) => s === 'ok')).toHaveLength(100)
    expect(statuses.filter((s) => s === 'InsufficientBalance')).toHaveLength(100)
    expect(await balanceOf(key.id)).toBe(0)
    expect(
      await scalar(
        database.db,
        sql`select coalesce(sum(amount), 0) from ledger_entries where key_id = ${key.id}::uuid and type = 'consume'`,
      ),
    ).toBe(-1000)
  })

  it('lets one of two concurrent debits take the last token; the other gets 402 (test 2)', async () => {
    for (let round = 0; round < 20; round++) {
      const key = await keyWithBalance(database.db, 1)
      const outcomes = await Promise.all([outcomeOf(use(key.id, 1)), outcomeOf(use(key.id, 1))])
      expect(outcomes.sort()).toEqual(['InsufficientBalance', 'ok'])
      expect(await balanceOf(key.id)).toBe(0)
    }
  })

  it('debits a usage event sent concurrently many times once', async () => {
    const key = await keyWithBalance(database.db, 1000)
    const event = randomUUID()
    const results = await Promise.all(Array.from({ length: 20 }, () => use(key.id, 7, event)))
    expect(results.filter((r) => !r.duplicate)).toHaveLength(1)
    expect(await balanceOf(key.id)).toBe(993)
  })

  it('keeps every cached balance equal to its entries after a load across many keys (test 6)', async () => {
    const keys = await Promise.all(Array.from({ length: 20 }, () => keyWithBalance(database.db, 500)))
    await Promise.all(Array.from({ length: 400 }, (_, i) => outcomeOf(use(keys[i % keys.length].id, 1 + (i % 37)))))
    expect(await auditLedger(database.db)).toEqual([])
  })
})
