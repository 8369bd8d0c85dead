import { randomUUID } from 'node:crypto'
import { sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { applyEntries, applyEntry, auditLedger, type EntryInput } from '~/server/domain/ledger'
import { outcomeOf } from '../support/outcome'
import { keyWithBalance, scalar, apiDatabase } from '../support/api'

const database = apiDatabase()

const balanceOf = (id: string) => scalar(database.db, sql`select balance from api_keys where id = ${id}::uuid`)
const entry = (
  keyId: string,
  type: EntryInput['type'],
  amount: number,
  externalRef = `${type}:${randomUUID()}`,
): EntryInput => ({ keyId, amount, type, externalRef })

describe('one ledger batch', () => {
  it('answers each entry of a batch mixing credits and debits of several keys with its own outcome', async () => {
    const a = await keyWithBalance(database.db, 100)
    const b = await keyWithBalance(database.db, 0)
    const revoked = await keyWithBalance(database.db, 50)
    await database.db.execute(sql`update api_keys set revoked_at = now() where id = ${revoked.id}::uuid`)
    const recorded = await applyEntry(database.db, entry(a.id, 'consume', -10, 'usage:recorded')) // a: 90

    const outcomes = await applyEntries(database.db, [
      entry(a.id, 'consume', -30), // a: 60
      entry(b.id, 'purchase', 500), // b: 500
      entry(a.id, 'refund', -80), // short by 20
      entry(b.id, 'consume', -200), // b: 300
      entry(a.id, 'purchase', 10), // a: 70
      entry(revoked.id, 'purchase', 10), // a revoked key takes no credit either
      entry(randomUUID(), 'consume', -1),
      entry(a.id, 'purchase', -5), // a purchase cannot take tokens away
      entry(b.id, 'consume', -1, 'usage:recorded'), // a's event
      entry(a.id, 'consume', -10, 'usage:recorded'), // replayed
      entry(a.id, 'adjustment', 5), // a: 75
    ])
    expect(outcomes.map(({ outcome, balance }) => [outcome, balance])).toEqual([
      ['applied', 60],
      ['applied', 500],
      ['insufficient', 60],
      ['applied', 300],
      ['applied', 70],
      ['revoked', 50],
      ['not_found', null],
      ['invalid', 70],
      ['conflict', 300],
      ['duplicate', 70],
      ['applied', 75],
    ])
    expect(outcomes[9].entryId).toBe(recorded.entryId)
    expect([await balanceOf(a.id), await balanceOf(b.id), await balanceOf(revoked.id)]).toEqual([75, 300, 50])
    expect(await auditLedger(database.db)).toEqual([])
  })

  it('refuses an entry the database could not store before it reaches the batch', async () => {
    const key = await keyWithBalance(database.db, 10)
    expect(await outcomeOf(applyEntry(database.db, entry(key.id, 'purchase', 1.5)))).toBe('InvalidAmount')
    expect(await outcomeOf(applyEntry(database.db, entry('not-a-key', 'purchase', 1)))).toBe('KeyIdNotFound')
    expect(await outcomeOf(applyEntry(database.db, entry(key.id, 'purchase', 1, 'purchase:\0')))).toBe('UnstorableText')
    expect(await outcomeOf(applyEntry(database.db, entry(key.id, 'refund', 5)))).toBe('InvalidAmount')
    expect(await balanceOf(key.id)).toBe(10)
  })
})
