import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openDatabase, useDatabase, type Database } from '~/server/db/client'
import { call, respond, SERVICE_TOKEN, testEnv } from '../support/api'

/** Nothing listens on port 1: every connection attempt is refused, as when the database is down. */
testEnv()
let database: Database
beforeAll(async () => {
  database = await openDatabase({ url: 'postgres://postgres@127.0.0.1:1/unreachable', maxConnections: 2 })
  useDatabase(database)
})
afterAll(async () => {
  useDatabase(undefined)
  await database.close()
})

const get = (path: string) => respond('GET', path)

describe('with the database unreachable', () => {
  it('refuses metering with 503, Retry-After and {detail}, fast', async () => {
    const started = performance.now()
    const { status, body, response } = await call('POST', '/internal/v1/usage', {
      bearer: SERVICE_TOKEN,
      json: { key_id: randomUUID(), product: 'reader', tokens: 1, usage_event_id: randomUUID() },
    })
    expect({ status, body }).toEqual({
      status: 503,
      body: { detail: 'Service temporarily unavailable, try again shortly' },
    })
    expect(response.headers.get('retry-after')).toBe('1')
    expect(performance.now() - started).toBeLessThan(3_000)
  })

  it('fails readiness with 503 within a second, while liveness stays 200', async () => {
    const started = performance.now()
    const ready = await get('/healthz')
    expect(ready.status).toBe(503)
    expect(await ready.json()).toMatchObject({ database: 'unreachable' })
    expect(performance.now() - started).toBeLessThan(1_500)
    const live = await get('/healthz/live')
    expect({ status: live.status, body: await live.json() }).toEqual({ status: 200, body: { status: 'ok' } })
  })
})
