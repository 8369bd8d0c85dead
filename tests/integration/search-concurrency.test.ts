import { sql } from 'drizzle-orm'
import { expect, it } from 'vitest'
import { auditLedger } from '~/server/domain/ledger'
import { countTokens } from '../support/tokens'
import { call, keyWithBalance, scalar, apiDatabase } from '../support/api'
import { describeWithService } from '../support/services'

describeWithService('TEST_DATABASE_URL', 'search API metering under concurrency [PG]', () => {
  const database = apiDatabase({ maxConnections: 20 })

  it('answers 200 of 300 concurrent embedding requests on a key that can pay for 200; the rest get 402, balance 0', async () => {
    const text = 'Concurrent requests race for the last tokens of a key.'
    const perRequest = countTokens(text)
    const key = await keyWithBalance(database.db, 200 * perRequest)
    // A premium key (5,000 requests a minute), so the per-minute limit is not what refuses the extra 100.
    await database.db.execute(
      sql`update api_keys set email = 'load@example.com', speed_level = 2 where id = ${key.id}::uuid`,
    )
    const answers = await Promise.all(
      Array.from({ length: 300 }, () =>
        call('POST', '/v1/embeddings', {
          bearer: key.apiKey,
          json: { model: 'embeddings-v3', input: [text] },
        }),
      ),
    )
    const statuses = answers.map((a) => a.status)
    expect(statuses.filter((s) => s === 200)).toHaveLength(200)
    expect(statuses.filter((s) => s === 402)).toHaveLength(100)
    for (const answer of answers.filter((a) => a.status === 200))
      expect(answer.body.usage.total_tokens).toBe(perRequest)
    expect(await scalar(database.db, sql`select balance from api_keys where id = ${key.id}::uuid`)).toBe(0)
    expect(
      await scalar(
        database.db,
        sql`select count(*) from ledger_entries where key_id = ${key.id}::uuid and type = 'consume'`,
      ),
    ).toBe(200)
    expect(await auditLedger(database.db)).toEqual([])
  })
})
