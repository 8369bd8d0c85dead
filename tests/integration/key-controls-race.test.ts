import { sql } from 'drizzle-orm'
import { expect, it } from 'vitest'
import { auditLedger } from '~/server/domain/ledger'
import { countTokens } from '../support/tokens'
import { call, keyWithBalance, scalar, apiDatabase } from '../support/api'
import { describeWithService } from '../support/services'

// The cap is checked under the key row's lock in ledger_apply; only concurrent transactions on a real server
// can show that no two debits both read the spend before either adds to it (PGlite runs one at a time).
describeWithService('TEST_DATABASE_URL', 'a spending cap under concurrency [PG]', () => {
  const database = apiDatabase({ maxConnections: 20 })

  it('200 concurrent requests against a daily cap worth 100 of them spend exactly the cap; the rest get 402', async () => {
    const text = 'Concurrent requests race for the last tokens of a daily cap.'
    const perRequest = countTokens(text)
    const key = await keyWithBalance(database.db, 1_000 * perRequest)
    // Premium (5,000 requests a minute), so the per-minute limit is not what refuses the extra 100.
    await database.db.execute(
      sql`update api_keys set email = 'cap@example.com', speed_level = 2, daily_cap = ${100 * perRequest} where id = ${key.id}::uuid`,
    )
    const answers = await Promise.all(
      Array.from({ length: 200 }, () =>
        call('POST', '/v1/embeddings', {
          bearer: key.apiKey,
          json: { model: 'embeddings-v3', input: [text] },
        }),
      ),
    )
    const statuses = answers.map((a) => a.status)
    expect(statuses.filter((s) => s === 200)).toHaveLength(100)
    const refused = answers.filter((a) => a.status === 402)
    expect(refused).toHaveLength(100)
    for (const answer of refused) expect(answer.body.detail).toMatch(/daily spending cap of [\d,]+ tokens is reached/)
    const spent = await scalar(
      database.db,
      sql`select coalesce(sum(-amount), 0) from ledger_entries where key_id = ${key.id}::uuid and type = 'consume'`,
    )
    expect(spent).toBe(100 * perRequest)
    expect(await scalar(database.db, sql`select spent_day from api_keys where id = ${key.id}::uuid`)).toBe(
      100 * perRequest,
    )
    expect(await scalar(database.db, sql`select balance from api_keys where id = ${key.id}::uuid`)).toBe(
      900 * perRequest,
    )
    expect(await auditLedger(database.db)).toEqual([])
  })
})
