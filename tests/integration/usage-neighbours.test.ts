import { randomUUID } from 'node:crypto'
import { sql } from 'drizzle-orm'
import { expect, it } from 'vitest'
import { SERVICE_TOKEN, call, keyWithBalance, scalar, apiDatabase } from '../support/api'
import { describeWithService } from '../support/services'

describeWithService('TEST_DATABASE_URL', 'one bad usage event among concurrent ones [PG]', () => {
  const database = apiDatabase({ maxConnections: 20 })

  it.each([
    ['a lone surrogate in model', { model: 'm\ud800' }],
    ['a lone surrogate in usage_event_id', { usage_event_id: `evt-\ud800-${randomUUID()}` }],
    ['NUL in model', { model: 'm\u0000' }],
  ])('refuses %s with 422 and answers every other caller', async (_name, bad) => {
    const key = await keyWithBalance(database.db, 1_000)
    const bodies = Array.from({ length: 80 }, (_, i) => ({
      key_id: key.id,
      product: 'reader',
      model: 'm1',
      tokens: 1,
      usage_event_id: randomUUID(),
      ...(i === 40 ? bad : {}),
    }))
    const answers = await Promise.all(
      bodies.map((json) => call('POST', '/internal/v1/usage', { bearer: SERVICE_TOKEN, json })),
    )
    expect(answers[40].status).toBe(422)
    expect(answers.filter((_, i) => i !== 40).map((a) => a.status)).toEqual(Array(79).fill(200))
    expect(await scalar(database.db, sql`select balance from api_keys where id = ${key.id}::uuid`)).toBe(1_000 - 79)
  })
})
