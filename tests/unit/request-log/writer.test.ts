import { afterEach, describe, expect, it, vi } from 'vitest'
import { FLUSH_MS, writeRequestLog, type RequestLogRow } from '~/server/api/request-log/writer'
import type { Db } from '~/server/db/types'
import { shutdown } from '~/server/lifecycle'

/** A database that is away: every insert is refused, and counted. */
function awayDatabase() {
  const attempts: number[] = []
  const db = {
    insert: () => ({
      values: async (rows: RequestLogRow[]) => {
        attempts.push(rows.length)
        throw new Error('write CONNECTION_ENDED')
      },
    }),
  } as unknown as Db
  return { db, attempts }
}

const row = (requestId: string): RequestLogRow => ({
  keyId: '00000000-0000-4000-8000-000000000000',
  requestId,
  product: 'embeddings',
  model: 'embeddings-v3',
  engine: 'builtin',
  inputTokens: 1,
  outputTokens: 0,
  latencyMs: 1,
  status: 200,
  createdAt: new Date(),
})

afterEach(() => vi.useRealTimers())

describe('the request log writer', () => {
  it('keeps rows the database refuses and tries them again, until the server stops; then it tries once more and stops', async () => {
    vi.useFakeTimers()
    const { db, attempts } = awayDatabase()
    writeRequestLog(db, row('a'))
    writeRequestLog(db, row('b'))
    await vi.advanceTimersByTimeAsync(FLUSH_MS)
    await vi.advanceTimersByTimeAsync(FLUSH_MS)
    // A database briefly away loses nothing: the same two rows, tried again.
    expect(attempts).toEqual([2, 2])

    await shutdown()
    expect(attempts).toEqual([2, 2, 2])
    // Its connections are closed now: no more tries, and no more errors in the log, however long the process lives.
    await vi.advanceTimersByTimeAsync(10 * FLUSH_MS)
    expect(attempts).toEqual([2, 2, 2])

    // A server started later in the same process writes through its own database only.
    const next = awayDatabase()
    writeRequestLog(next.db, row('c'))
    await vi.advanceTimersByTimeAsync(FLUSH_MS)
    expect([attempts, next.attempts]).toEqual([[2, 2, 2], [1]])
    await shutdown()
  })
})
