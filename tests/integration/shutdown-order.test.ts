import { sql } from 'drizzle-orm'
import { expect, it, vi } from 'vitest'
import { rowsOf } from '~/server/db/rows'
import { shutdown } from '~/server/lifecycle'
import { call, keyWithBalance, setupApi, testEnv } from '../support/api'

testEnv()

/**
 * A file's server stops as a production one does (lifecycle.ts): its work first, then the request log's last
 * write, then its database. Closing the database under the writer lost the rows it held and logged "request
 * log write failed … PGlite is closed" (CONNECTION_ENDED on Postgres) at the end of every file.
 */
it('writes the request log rows it holds before its database closes, and logs no failed write', async () => {
  const database = await setupApi()
  const key = await keyWithBalance(database.db, 1000)
  const answer = await call('POST', '/v1/embeddings', {
    bearer: key.apiKey,
    json: { model: 'embeddings-v3', input: ['a sentence'] },
  })
  expect(answer.status).toBe(200)
  const logged = rowsOf<{ n: number }>(await database.db.execute(sql`select count(*)::int as n from request_log`))
  // Still held by the writer, which writes within a second or when the server stops.
  expect(logged[0].n).toBe(0)
  const inserts = vi.spyOn(database.db, 'insert')
  const errors: string[] = []
  vi.spyOn(console, 'error').mockImplementation((line: unknown) => void errors.push(String(line)))
  try {
    // What every file does at its end, then what the file's last hook does (tests/support/file-per-server.ts).
    await database.close()
    await shutdown()
  } finally {
    vi.restoreAllMocks()
  }
  expect(inserts).toHaveBeenCalled()
  expect(errors.filter((line) => line.includes('request log write failed'))).toEqual([])
})
