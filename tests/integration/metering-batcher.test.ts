import { randomUUID } from 'node:crypto'
import { sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import type { Db } from '~/server/db/types'
import { Batcher } from '~/server/domain/batcher'
import { applyEntries, applyEntry, auditLedger, type EntryInput } from '~/server/domain/ledger'
import { consume, meteringBatcher, meteringBatchOptions } from '~/server/domain/metering'
import { keyWithBalance, scalar, apiDatabase } from '../support/api'
import { isRefusal } from '~/server/domain/refusals'
import { outcomeOf } from '../support/outcome'
import { describeWithService } from '../support/services'

const database = apiDatabase({ maxConnections: 20 })

const use = (keyId: string, tokens: number, usageEventId = randomUUID(), db: Db = database.db) =>
  consume(db, { keyId, tokens, usageEventId, product: 'reader' })
const balanceOf = (id: string) => scalar(database.db, sql`select balance from api_keys where id = ${id}::uuid`)
const entriesOf = (id: string) =>
  scalar(database.db, sql`select count(*) from ledger_entries where key_id = ${id}::uuid`)
const batches = () => meteringBatcher(database.db).stats.batches

describe('metering group commit', () => {
  it('answers each caller of one mixed batch on a hot key with its own outcome', async () => {
    const hot = await keyWithBalance(database.db, 100)
    const other = await keyWithBalance(database.db, 100)
    const revoked = await keyWithBalance(database.db, 100)
    await database.db.execute(sql`update api_keys set revoked_at = now() where id = ${revoked.id}::uuid`)
    const e1 = randomUUID()
    const e3 = randomUUID()
    const foreign = randomUUID()
    const before = await use(hot.id, 10, e1) // 90 left
    await use(other.id, 1, foreign)

    const started = batches()
    const calls = [
      use(hot.id, 30), // 60
      use(hot.id, 30, e1), // already recorded before the batch
      use(hot.id, 50, e3), // 10
      use(hot.id, 50, e3), // the same event again, inside the batch
      use(hot.id, 20), // short by 10
      use(hot.id, 10), // 0
      use(hot.id, 5, foreign), // recorded for another key
      use(randomUUID(), 5),
      use(revoked.id, 5),
    ].map((p) =>
      p.then(
        (r) => r,
        (e: unknown) => (isRefusal(e) ? e.kind : e),
      ),
    )
    const [a, b, c, d, e, f, g, unknown, gone] = await Promise.all(calls)
    expect(batches() - started).toBe(1)

    expect(a).toMatchObject({ balance: 60, duplicate: false })
    expect(b).toMatchObject({ balance: 60, duplicate: true, entryId: before.entryId })
    expect(c).toMatchObject({ balance: 10, duplicate: false })
    expect(d).toMatchObject({ balance: 10, duplicate: true, entryId: (c as { entryId: number }).entryId })
    expect(e).toBe('InsufficientBalance')
    expect(f).toMatchObject({ balance: 0, duplicate: false })
    expect([g, unknown, gone]).toEqual(['EventOfAnotherKey', 'KeyIdNotFound', 'KeyRevoked'])
    expect(await balanceOf(hot.id)).toBe(0)
    expect(await entriesOf(hot.id)).toBe(5) // purchase, e1, and the three applied in the batch
    expect(await balanceOf(revoked.id)).toBe(100)
    expect(await auditLedger(database.db)).toEqual([])
  })

  it('fires a balance alert once, from the debit that crosses it, inside a batch', async () => {
    const key = await keyWithBalance(database.db, 1000)
    const to = `batch-${randomUUID()}@example.com`
    await database.db.execute(
      sql`insert into balance_notifications (key_id, threshold, email, armed) values (${key.id}::uuid, 500, ${to}, true), (${key.id}::uuid, 100, ${to}, true)`,
    )
    const results = await Promise.all(Array.from({ length: 10 }, () => use(key.id, 100)))
    expect(results.map((r) => r.alerts)).toEqual([0, 0, 0, 0, 0, 1, 0, 0, 0, 1])
    expect(
      await scalar(
        database.db,
        sql`select count(*) from email_outbox where "to" = ${to} and subject like '%below 500 tokens'`,
      ),
    ).toBe(1)
    expect(
      await scalar(
        database.db,
        sql`select count(*) from balance_notifications where key_id = ${key.id}::uuid and armed`,
      ),
    ).toBe(0)
  })

  it('fails only the entry the database refuses: the rest of its batch is run again and applied', async () => {
    const key = await keyWithBalance(database.db, 1000)
    // A value past every check that Postgres still refuses, as a column limit or a bad character would be.
    await database.db.execute(
      sql.raw(`create function explode() returns trigger language plpgsql as $$ begin raise exception 'boom'; end $$`),
    )
    await database.db.execute(
      sql.raw(
        `create trigger explode before insert on ledger_entries for each row when (new.product = 'explode') execute function explode()`,
      ),
    )
    try {
      const started = batches()
      const events = Array.from({ length: 9 }, () => randomUUID())
      const calls = events.map((event, i) =>
        consume(database.db, {
          keyId: key.id,
          tokens: 10,
          usageEventId: event,
          product: i === 4 ? 'explode' : 'reader',
        }),
      )
      const settled = await Promise.allSettled(calls)
      expect(batches() - started).toBe(1)
      expect(settled.map((s) => s.status)).toEqual(events.map((_, i) => (i === 4 ? 'rejected' : 'fulfilled')))
      expect(await balanceOf(key.id)).toBe(1000 - 8 * 10)
      expect(await entriesOf(key.id)).toBe(1 + 8)
    } finally {
      await database.db.execute(sql.raw('drop trigger explode on ledger_entries'))
      await database.db.execute(sql.raw('drop function explode()'))
    }
    expect(await use(key.id, 10)).toMatchObject({ balance: 910 })
  })

  it('fails only the entry with text Postgres cannot store, when one reaches a batch past the checks', async () => {
    const key = await keyWithBalance(database.db, 100)
    const entry = (model: string): EntryInput => ({
      keyId: key.id,
      amount: -1,
      type: 'consume',
      externalRef: `usage:${randomUUID()}`,
      product: 'reader',
      model,
    })
    const settled = await Promise.allSettled(
      ['a', 'b', 'm\ud800', 'c'].map((model) => meteringBatcher(database.db).submit(entry(model))),
    )
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled'])
    expect(await balanceOf(key.id)).toBe(97)
  })

  it('rejects every caller when the database is down', async () => {
    const down = new Error('connect ECONNREFUSED 127.0.0.1:5432')
    const db = { execute: () => Promise.reject(down) } as unknown as Db
    const settled = await Promise.allSettled([
      use(randomUUID(), 1, undefined, db),
      use(randomUUID(), 2, undefined, db),
      use(randomUUID(), 3, undefined, db),
    ])
    expect(settled).toEqual(Array.from({ length: 3 }, () => ({ status: 'rejected', reason: down })))
    // Not split: running the entries one by one would only hammer a database that is not there.
    expect(meteringBatcher(db).stats).toMatchObject({ batches: 1, items: 3, splits: 0 })
  })

  it('runs a batch again when Postgres broke a deadlock by aborting it', async () => {
    const key = await keyWithBalance(database.db, 100)
    let calls = 0
    const flaky = new Proxy(database.db, {
      get: (target, name) =>
        name === 'execute'
          ? (q: never) =>
              ++calls === 1
                ? Promise.reject(Object.assign(new Error('deadlock detected'), { code: '40P01' }))
                : target.execute(q)
          : name === '$client'
            ? undefined
            : Reflect.get(target, name),
    })
    expect(await use(key.id, 10, undefined, flaky)).toMatchObject({ balance: 90 })
    expect(calls).toBe(2)
  })

  it('refuses malformed items before they can reach (and fail) a batch', async () => {
    const key = await keyWithBalance(database.db, 100)
    expect(await outcomeOf(use(key.id, 0))).toBe('InvalidAmount')
    expect(await outcomeOf(use(key.id, 1.5))).toBe('InvalidAmount')
    expect(await outcomeOf(use('not-a-uuid', 1))).toBe('KeyIdNotFound')
    expect(
      await outcomeOf(consume(database.db, { keyId: key.id, tokens: 1, usageEventId: 'a\0b', product: 'reader' })),
    ).toBe('UnstorableText')
    expect(await balanceOf(key.id)).toBe(100)
  })

  it('debits inside a caller transaction, and rolls back with it', async () => {
    const key = await keyWithBalance(database.db, 100)
    await expect(
      database.db.transaction(async (tx) => {
        expect(
          await consume(tx, { keyId: key.id, tokens: 40, usageEventId: randomUUID(), product: 'reader' }),
        ).toMatchObject({ balance: 60 })
        throw new Error('caller gave up')
      }),
    ).rejects.toThrow('caller gave up')
    expect(await balanceOf(key.id)).toBe(100)
  })
})

describeWithService('TEST_DATABASE_URL', 'metering group commit under concurrency [PG]', () => {
  const debit = (keyId: string, tokens: number, externalRef = `usage:${randomUUID()}`): EntryInput => ({
    keyId,
    amount: -tokens,
    type: 'consume',
    externalRef,
    product: 'reader',
  })

  it('settles an event another transaction is recording at the same moment per item, without failing the batch', async () => {
    const key = await keyWithBalance(database.db, 100)
    const elsewhere = await keyWithBalance(database.db, 100)
    for (const finish of ['commit', 'rollback'] as const) {
      const ref = `usage:${randomUUID()}`
      let release!: () => void
      const held = new Promise<void>((resolve) => (release = resolve))
      let recorded!: () => void
      const inserted = new Promise<void>((resolve) => (recorded = resolve))
      const other = database.db
        .transaction(async (tx) => {
          await applyEntry(tx, { keyId: elsewhere.id, amount: -1, type: 'consume', externalRef: ref })
          recorded()
          await held
          if (finish === 'rollback') throw new Error('rolled back')
        })
        .catch(() => undefined)
      await inserted
      const batch = applyEntries(database.db, [debit(key.id, 1), debit(key.id, 1, ref), debit(key.id, 1)])
      await new Promise((r) => setTimeout(r, 100))
      release()
      const outcomes = await batch
      await other
      expect(outcomes.map((o) => o.outcome)).toEqual(
        finish === 'commit' ? ['applied', 'conflict', 'applied'] : ['applied', 'applied', 'applied'],
      )
    }
    expect(await balanceOf(key.id)).toBe(95)
    expect(await auditLedger(database.db)).toEqual([])
  })

  it('lets two instances batch debits on the same keys in any order without deadlock or drift', async () => {
    const keys = await Promise.all(Array.from({ length: 8 }, () => keyWithBalance(database.db, 10_000)))
    const instances = [0, 1].map(
      () => new Batcher<EntryInput, unknown>((entries) => applyEntries(database.db, entries), meteringBatchOptions),
    )
    const debits = Array.from({ length: 600 }, (_, i) =>
      instances[i % 2].submit(debit(keys[(i * 7) % keys.length].id, 1 + (i % 5))),
    )
    const outcomes = (await Promise.all(debits)) as Array<{ outcome: string }>
    expect(outcomes.every((o) => o.outcome === 'applied')).toBe(true)
    const total = Array.from({ length: 600 }, (_, i) => 1 + (i % 5)).reduce((s, n) => s + n, 0)
    expect(
      await scalar(
        database.db,
        sql`select sum(balance) from api_keys where id in ${sql.raw(`('${keys.map((k) => k.id).join("','")}')`)}`,
      ),
    ).toBe(80_000 - total)
    expect(await auditLedger(database.db)).toEqual([])
  })
})
