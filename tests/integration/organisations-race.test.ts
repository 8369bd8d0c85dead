import { randomUUID } from 'node:crypto'
import { sql } from 'drizzle-orm'
import { expect, it } from 'vitest'
import { rowsOf } from '~/server/db/rows'
import { applyEntries, auditLedger, type EntryInput } from '~/server/domain/ledger'
import { consume } from '~/server/domain/metering'
import { apiDatabase, call, keyWithBalance, scalar } from '../support/api'
import { outcomeOf } from '../support/outcome'
import { organisationKey, organisationWithBalance, signedInAccount } from '../support/organisations'
import { describeWithService } from '../support/services'
import { countTokens } from '../support/tokens'

// The shared balance is one row that every key of the organisation debits under its lock (ledger_apply_v3);
// only concurrent transactions on a real server can show that no two debits both read it before either
// writes, and that batches locking balance rows and key rows in one order never deadlock (PGlite runs one
// transaction at a time).
describeWithService('TEST_DATABASE_URL', 'a shared balance under concurrency [PG]', () => {
  const database = apiDatabase({ maxConnections: 20 })
  const balanceOf = (id: string) => scalar(database.db, sql`select balance from api_keys where id = ${id}::uuid`)
  const deadlocks = () =>
    scalar(database.db, sql`select deadlocks from pg_stat_database where datname = current_database()`)

  it('50 keys of one organisation debiting 400 times at once: exactly the balance is spent, once each, never below zero', async () => {
    const owner = await signedInAccount(database.db, 'race-owner')
    const organisation = await organisationWithBalance(database.db, owner.uid, 250 * 10)
    const keys = await Promise.all(Array.from({ length: 50 }, () => organisationKey(database.db, organisation)))
    const before = await deadlocks()
    // 400 distinct debits of 10 against a balance worth 250 of them, each also sent a second time (a retry):
    // a replay must answer as the first, never debit twice.
    const events = Array.from({ length: 400 }, (_, i) => ({ keyId: keys[i % keys.length].id, event: randomUUID() }))
    const debit = ({ keyId, event }: (typeof events)[number]) =>
      outcomeOf(
        consume(database.db, { keyId, tokens: 10, usageEventId: event, product: 'embeddings', model: 'embeddings-v3' }),
      )
    const outcomes = await Promise.all([...events, ...events].map(debit))
    const applied = outcomes.slice(0, 400).filter((o) => o === 'ok').length
    const refused = outcomes.slice(0, 400).filter((o) => o === 'InsufficientBalance').length
    expect(applied + refused).toBe(400)
    expect(applied).toBe(250)
    expect(await balanceOf(organisation.balanceKeyId)).toBe(0)
    // Each applied event is one entry, under its key, naming the shared balance; none below zero.
    const [entries] = rowsOf<{ n: string; spent: string; lowest: string; foreign: string }>(
      await database.db.execute(sql`
        select count(*) as n, -sum(amount) as spent, min(balance_after) as lowest,
          count(*) filter (where balance_key_id is distinct from ${organisation.balanceKeyId}::uuid) as foreign
        from ledger_entries where type = 'consume' and key_id in (
          select id from api_keys where organisation_id = ${organisation.id}::uuid)`),
    )
    expect(Number(entries.n)).toBe(250)
    expect(Number(entries.spent)).toBe(2500)
    expect(Number(entries.lowest)).toBeGreaterThanOrEqual(0)
    expect(Number(entries.foreign)).toBe(0)
    // The keys' own balances are untouched; each key's day counter is what it spent.
    for (const key of keys) expect(await balanceOf(key.id)).toBe(0)
    const counted = await scalar(
      database.db,
      sql`select sum(spent_day) from api_keys where organisation_id = ${organisation.id}::uuid`,
    )
    expect(counted).toBe(2500)
    expect(await auditLedger(database.db)).toEqual([])
    expect(await deadlocks()).toBe(before)
  })

  it('100 search requests from 10 keys of one organisation at once: those the shared balance pays for answer, the rest 402', async () => {
    const owner = await signedInAccount(database.db, 'race-http')
    const text = 'Many keys of one team race for the last tokens of its shared balance.'
    const perRequest = countTokens(text)
    const organisation = await organisationWithBalance(database.db, owner.uid, 60 * perRequest)
    const keys = await Promise.all(Array.from({ length: 10 }, () => organisationKey(database.db, organisation)))
    // Premium keys (5,000 requests a minute), so the per-minute limit is not what refuses the extra 40.
    await database.db.execute(
      sql`update api_keys set email = 'team@example.com', speed_level = 2 where organisation_id = ${organisation.id}::uuid`,
    )
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        call('POST', '/v1/embeddings', {
          bearer: keys[i % 10].apiKey,
          json: { model: 'embeddings-v3', input: [text] },
        }),
      ),
    )
    expect(answers.filter((a) => a.status === 200)).toHaveLength(60)
    expect(answers.filter((a) => a.status === 402)).toHaveLength(40)
    expect(await balanceOf(organisation.balanceKeyId)).toBe(0)
    expect(await auditLedger(database.db)).toEqual([])
  })

  it('batches mixing shared-balance keys, their balance row and ordinary keys in every order never deadlock', async () => {
    const owner = await signedInAccount(database.db, 'race-mix')
    const organisations = await Promise.all(
      [1, 2].map(() => organisationWithBalance(database.db, owner.uid, 1_000_000)),
    )
    const teamKeys = await Promise.all(
      organisations.flatMap((o) => Array.from({ length: 5 }, () => organisationKey(database.db, o))),
    )
    const ownKeys = await Promise.all(Array.from({ length: 5 }, () => keyWithBalance(database.db, 1_000_000)))
    const ids = [...teamKeys, ...ownKeys].map((k) => k.id)
    const before = await deadlocks()
    const shuffled = <T>(items: T[]) => [...items].sort(() => Math.random() - 0.5)
    // Each batch debits every key in its own random order, and credits a balance row directly now and then.
    const batch = (n: number): EntryInput[] => [
      ...shuffled(ids).map((keyId) => ({
        keyId,
        amount: -1,
        type: 'consume' as const,
        externalRef: `usage:${randomUUID()}`,
        product: 'embeddings',
      })),
      ...(n % 3 === 0
        ? [
            {
              keyId: organisations[n % 2].balanceKeyId,
              amount: 5,
              type: 'adjustment' as const,
              externalRef: `adjust:${randomUUID()}`,
            },
          ]
        : []),
    ]
    const results = await Promise.all(Array.from({ length: 60 }, (_, n) => applyEntries(database.db, batch(n))))
    expect(results.flat().every((r) => r.outcome === 'applied')).toBe(true)
    expect(await deadlocks()).toBe(before)
    for (const o of organisations)
      expect(await balanceOf(o.balanceKeyId)).toBe(
        1_000_000 - 60 * 5 + 5 * results.filter((_, n) => n % 3 === 0 && n % 2 === organisations.indexOf(o)).length,
      )
    expect(await auditLedger(database.db)).toEqual([])
  })
})
