import { randomUUID } from 'node:crypto'
import { eq, sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { TokenMeter } from '~/server/api/search/meter'
import { apiKeys } from '~/server/db/schema'
import { apiDatabase, keyWithBalance, scalar } from '../support/api'

const database = apiDatabase()

describe('a token meter', () => {
  it('charges what it covered once when covers overlap, as a stream whose results arrive together does', async () => {
    const { id } = await keyWithBalance(database.db, 1_000_000)
    const [key] = await database.db.select().from(apiKeys).where(eq(apiKeys.id, id))
    const meter = new TokenMeter({ requestId: randomUUID() }, database.db, key, {
      product: 'reader',
      model: 'reader-search',
    })
    // Two snapshots of a search ready at once each cover the minimum before they leave.
    await Promise.all([meter.cover(10_000), meter.cover(10_000), meter.cover(12_000)])
    await meter.settle(12_000)
    const balance = await scalar(database.db, sql`select balance from api_keys where id = ${id}::uuid`)
    expect(balance).toBe(1_000_000 - 12_000)
  })
})
