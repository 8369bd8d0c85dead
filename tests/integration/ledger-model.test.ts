import { randomUUID } from 'node:crypto'
import { sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { rowsOf } from '~/server/db/rows'
import { bySystem } from '~/server/domain/audit'
import { applyEntry, auditLedger } from '~/server/domain/ledger'
import { consume } from '~/server/domain/metering'
import { transferBalance } from '~/server/domain/transfers'
import { keyWithBalance, apiDatabase } from '../support/api'
import { outcomeOf as outcome } from '../support/outcome'

const database = apiDatabase()

/** Deterministic PRNG (mulberry32) so a failing sequence can be replayed from its seed. */
function prng(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

describe('the ledger against an in-memory model (test 3)', () => {
  it.each([1, 2, 3])('agrees after every step of a random sequence (seed %i)', async (seed) => {
    const random = prng(seed)
    const pick = <T>(xs: T[]) => xs[Math.floor(random() * xs.length)]
    const amount = () => 1 + Math.floor(random() * 500)
    const keys = await Promise.all(Array.from({ length: 4 }, () => keyWithBalance(database.db, 0)))
    const model = new Map(keys.map((k) => [k.id, { balance: 0, revoked: false }]))
    const replays: Array<() => Promise<unknown>> = []

    for (let step = 0; step < 120; step++) {
      const key = pick(keys).id
      const state = model.get(key)!
      const n = amount()
      const op = pick(['purchase', 'consume', 'consume', 'transfer', 'refund', 'replay'] as const)
      if (op === 'purchase') {
        const ref = `purchase:${randomUUID()}`
        const run = () => applyEntry(database.db, { keyId: key, amount: n, type: 'purchase', externalRef: ref })
        expect(await outcome(run())).toBe(state.revoked ? 'KeyRevoked' : 'ok')
        if (!state.revoked) state.balance += n
        replays.push(run)
      } else if (op === 'consume' || op === 'refund') {
        const ref = randomUUID()
        const run = () =>
          op === 'consume'
            ? consume(database.db, { keyId: key, tokens: n, usageEventId: ref, product: 'reader' })
            : applyEntry(database.db, { keyId: key, amount: -n, type: 'refund', externalRef: `refund:${ref}` })
        // A revoked key takes no entry but a refund of tokens it still holds (its purchase refunded).
        const revoked = state.revoked && op === 'consume'
        const expected = revoked ? 'KeyRevoked' : state.balance < n ? 'InsufficientBalance' : 'ok'
        expect(await outcome(run())).toBe(expected)
        if (expected === 'ok') {
          state.balance -= n
          replays.push(run)
        }
      } else if (op === 'transfer') {
        const to = pick(keys).id
        const receiver = model.get(to)!
        const expected =
          key === to
            ? 'SameKeyTransfer'
            : state.revoked
              ? 'KeyRevoked'
              : receiver.revoked
                ? 'ReceiverNotFound'
                : state.balance === 0
                  ? 'NothingToTransfer'
                  : 'ok'
        expect(await outcome(transferBalance(database.db, bySystem, key, to))).toBe(expected)
        if (expected === 'ok') {
          receiver.balance += state.balance
          state.balance = 0
          state.revoked = true
        }
      } else if (replays.length) {
        await outcome(pick(replays)()) // an event already recorded never moves a balance again
      }

      const rows = rowsOf<{ id: string; balance: string; revoked: boolean }>(
        await database.db.execute(
          sql`select id, balance, revoked_at is not null as revoked from api_keys where id in ${sql.raw(`('${[...model.keys()].join("','")}')`)}`,
        ),
      )
      for (const row of rows)
        expect({ id: row.id, balance: Number(row.balance), revoked: row.revoked }).toEqual({
          id: row.id,
          ...model.get(row.id),
        })
    }
    expect(await auditLedger(database.db)).toEqual([])
  })
})
