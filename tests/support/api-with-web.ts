import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach } from 'vitest'
import { readEvents, type StreamEvent } from '~/lib/event-stream/parse'
import { resetRateLimits } from '~/server/providers/rate-limit-store'
import { scalar, setupApi, testEnv } from './api'
import { startWebFixtures, type WebFixtures } from './web-fixtures'

/**
 * An in-process API test file that reads pages: its environment, a fresh database and the loopback web
 * fixtures, opened before its tests and closed after; rate limits and the fixtures' hits reset before each.
 */
export function apiWithWeb(env: Record<string, string>) {
  testEnv(env)
  let database: Awaited<ReturnType<typeof setupApi>> | undefined
  let web: WebFixtures | undefined
  beforeAll(async () => {
    database = await setupApi()
    web = await startWebFixtures()
  })
  afterAll(async () => {
    await web?.close()
    await database?.close()
  })
  beforeEach(() => {
    resetRateLimits()
    if (web) web.hits.length = 0
  })
  return {
    get database() {
      return database!
    },
    get web() {
      return web!
    },
    balanceOf: (id: string) => scalar(database!.db, sql`select balance from api_keys where id = ${id}::uuid`),
  }
}

/** Every event of an event-stream answer, read with the site's shared event-stream client. */
export async function eventsOf(response: Response): Promise<StreamEvent[]> {
  const events: StreamEvent[] = []
  for await (const event of readEvents(response.body!)) events.push(event)
  return events
}
