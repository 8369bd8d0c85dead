import { sql } from 'drizzle-orm'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { bulkLimits } from '~/contracts/bulk'
import { rowsOf } from '~/server/db/rows'
import { applyEntry } from '~/server/domain/ledger'
import { countTokens } from '../support/tokens'
import { objectStorage, type ObjectStorage } from '~/server/providers/storage'
import { bulkTestDatabase, downloadResult, drainQueue, jobOf, upload, uploadForm } from '../support/bulk'
import { call, keyWithBalance, scalar } from '../support/api'

const { database } = bulkTestDatabase('bulk-jobs')
afterEach(() => vi.useRealTimers())

const size = bulkLimits.batchSize
const texts = (n: number, tag = 'row') =>
  Array.from({ length: n }, (_, i) => `${tag} ${i}: notes on search, ranking and vectors`)
const tokensOf = (list: string[]) => list.reduce((sum, text) => sum + countTokens(text), 0)
const balanceOf = (id: string) => scalar(database.db, sql`select balance from api_keys where id = ${id}::uuid`)
/** Debits of a job, per batch: the ledger's consume entries named after it. */
const debitsOf = async (jobId: string) =>
  scalar(
    database.db,
    sql`select count(*) from ledger_entries where type = 'consume' and external_ref like ${`usage:bulk:${jobId}:%`}`,
  )
const submit = async (apiKey: string, list: string[], fields: Record<string, string> = {}) => {
  const { status, body } = await upload(
    apiKey,
    uploadForm('texts.txt', list.join('\n'), { model: 'embeddings-v3', ...fields }),
  )
  expect(status).toBe(200)
  return body as { id: string }
}
const post = (path: string, bearer: string) => call('POST', path, { bearer })

/**
 * Storage whose write of one part never finishes, as a worker killed while writing it never goes on: nothing
 * after it runs (no commit, no lease renewal). `release` lets the write go at the end, as a late write would.
 */
function hangingOn(storage: ObjectStorage, partOf: (key: string) => boolean) {
  let release = () => {}
  const gate = new Promise<void>((resolve) => (release = resolve))
  const hanging: ObjectStorage = {
    ...storage,
    async write(key, body, type) {
      if (partOf(key)) await gate
      return storage.write(key, body, type)
    },
  }
  return { storage: hanging, release }
}

describe('a job interrupted by a restart', () => {
  it('resumes from its last committed batch on another worker and charges each batch once, when it is stored', async () => {
    const key = await keyWithBalance(database.db, 1_000_000)
    const list = texts(size * 3 + 10)
    const job = await submit(key.apiKey, list)
    const { storage, release } = hangingOn(objectStorage(), (k) => k.endsWith('/parts/000002.jsonl'))
    // The first worker stores two batches and dies writing the third; its lease, no longer renewed, still holds the job.
    const dead = drainQueue(database.db, { storage, leaseSeconds: 2, heartbeatMs: 60_000 })
    await vi.waitFor(async () => expect((await jobOf(key.apiKey, job.id)).body.processed_rows).toBe(size * 2), {
      timeout: 20_000,
    })
    expect((await jobOf(key.apiKey, job.id)).body.status).toBe('in-progress')
    expect(await debitsOf(job.id)).toBe(2) // the batch it was storing is not charged
    expect(await drainQueue(database.db)).toBe(0) // nobody may take it while the lease holds
    await new Promise((resolve) => setTimeout(resolve, 2100))
    expect(await drainQueue(database.db)).toBe(1)

    const { body: done } = await jobOf(key.apiKey, job.id)
    expect(done).toMatchObject({ status: 'completed', processed_rows: list.length, used_token_count: tokensOf(list) })
    expect(await debitsOf(job.id)).toBe(4)
    expect(await balanceOf(key.id)).toBe(1_000_000 - tokensOf(list))
    const lines = await downloadResult(key.apiKey, job.id)
    expect(lines.map((line) => line.index)).toEqual(list.map((_, i) => i))

    // The dead worker's write lands late: it finds the job lost and changes nothing.
    release()
    await dead
    expect(await debitsOf(job.id)).toBe(4)
    expect(await balanceOf(key.id)).toBe(1_000_000 - tokensOf(list))
    expect((await downloadResult(key.apiKey, job.id)).map((line) => line.index)).toEqual(list.map((_, i) => i))
  })
})

describe('a key that runs out of tokens', () => {
  it('stops the job as failed with its partial result, never below zero, and a retry after a top-up finishes it', async () => {
    const list = texts(size * 3)
    const firstTwo = tokensOf(list.slice(0, size * 2))
    const key = await keyWithBalance(database.db, firstTwo + 5)
    const job = await submit(key.apiKey, list, { email: 'owner@example.com' })
    await drainQueue(database.db)

    const { body: failed } = await jobOf(key.apiKey, job.id)
    expect(failed).toMatchObject({
      status: 'failed',
      processed_rows: size * 2,
      used_token_count: firstTwo,
      downloadable: true,
    })
    expect(failed.error).toMatch(/balance ran out/)
    expect(await balanceOf(key.id)).toBe(5)
    expect(await downloadResult(key.apiKey, job.id)).toHaveLength(size * 2)
    expect(
      await scalar(
        database.db,
        sql`select count(*) from email_outbox where kind = 'bulk-job-failed' and "to" = 'owner@example.com'`,
      ),
    ).toBe(1)

    await applyEntry(database.db, {
      keyId: key.id,
      amount: 1_000_000,
      type: 'purchase',
      externalRef: `purchase:${job.id}`,
    })
    expect((await post(`/v1/bulk-embeddings/${job.id}/retry`, key.apiKey)).body.status).toBe('waiting')
    await drainQueue(database.db)
    const { body: done } = await jobOf(key.apiKey, job.id)
    expect(done).toMatchObject({
      status: 'completed',
      processed_rows: list.length,
      used_token_count: tokensOf(list),
      error: null,
    })
    expect(await debitsOf(job.id)).toBe(3)
    const lines = await downloadResult(key.apiKey, job.id)
    expect(lines.map((line) => line.index)).toEqual(list.map((_, i) => i))
  })
})

describe('cancelling and retrying', () => {
  it('cancels a waiting job, which then fails and can be retried, and refuses what does not fit a job state', async () => {
    const key = await keyWithBalance(database.db, 1_000_000)
    const job = await submit(key.apiKey, texts(10))
    expect((await post(`/v1/bulk-embeddings/${job.id}/download-result`, key.apiKey)).status).toBe(409)
    const cancelled = await post(`/v1/bulk-embeddings/${job.id}/cancel`, key.apiKey)
    expect(cancelled.body).toMatchObject({ status: 'failed', error: 'Cancelled on request', downloadable: false })
    expect((await post(`/v1/bulk-embeddings/${job.id}/cancel`, key.apiKey)).status).toBe(409)
    expect(await drainQueue(database.db)).toBe(0)
    expect((await post(`/v1/bulk-embeddings/${job.id}/download-result`, key.apiKey)).status).toBe(409)
    await post(`/v1/bulk-embeddings/${job.id}/retry`, key.apiKey)
    await drainQueue(database.db)
    expect((await jobOf(key.apiKey, job.id)).body.status).toBe('completed')
    expect((await post(`/v1/bulk-embeddings/${job.id}/retry`, key.apiKey)).status).toBe(409)
  })

  it("shows another key's job to nobody but its own key", async () => {
    const owner = await keyWithBalance(database.db, 1_000_000)
    const other = await keyWithBalance(database.db, 1_000_000)
    const job = await submit(owner.apiKey, texts(3))
    await drainQueue(database.db)
    expect((await jobOf(other.apiKey, job.id)).status).toBe(404)
    for (const action of ['cancel', 'retry', 'download-result'])
      expect((await post(`/v1/bulk-embeddings/${job.id}/${action}`, other.apiKey)).status).toBe(404)
    const { body: list } = await call('GET', '/v1/bulk-embeddings', { bearer: other.apiKey })
    expect(list.data.map((j: { id: string }) => j.id)).not.toContain(job.id)
    expect(await jobOf(owner.apiKey, 'not-a-uuid').then((a) => a.status)).toBe(404)
  })
})

describe('a download link', () => {
  it('works until it expires, and not at all once any part of it is changed', async () => {
    const key = await keyWithBalance(database.db, 1_000_000)
    const other = await submit(key.apiKey, texts(2, 'other'))
    const job = await submit(key.apiKey, texts(2))
    await drainQueue(database.db)
    const { body } = await post(`/v1/bulk-embeddings/${job.id}/download-result`, key.apiKey)
    const url = new URL(body.download_url)
    expect(url.pathname).toBe(`/v1/bulk-embeddings/${job.id}/result`)
    expect(new Date(body.expires_at).getTime() - Date.now()).toBeGreaterThan(3500_000)
    const fetchLink = (id: string, query: Record<string, string>) =>
      call('GET', `/v1/bulk-embeddings/${id}/result`, { query })
    const query = Object.fromEntries(url.searchParams)
    expect((await fetchLink(job.id, query)).status).toBe(200)

    const flip = (s: string) => (s[0] === 'A' ? 'B' : 'A') + s.slice(1)
    expect((await fetchLink(job.id, { ...query, signature: flip(query.signature) })).status).toBe(403)
    expect((await fetchLink(job.id, { ...query, expires: String(Number(query.expires) + 3600) })).status).toBe(403)
    expect((await fetchLink(other.id, query)).status).toBe(403)
    expect((await fetchLink(job.id, { expires: query.expires })).status).toBe(422)

    vi.useFakeTimers({ toFake: ['Date'], now: Number(query.expires) * 1000 + 1000 })
    const expired = await fetchLink(job.id, query)
    expect(expired.status).toBe(403)
    expect(expired.body.detail).toMatch(/expired/)
  })
})

describe('a stored result that is not there', () => {
  it('answers its download link with 410 and a detail, never a 500 (another instance with its own folder)', async () => {
    const key = await keyWithBalance(database.db, 1_000_000)
    const job = await submit(key.apiKey, texts(2))
    await drainQueue(database.db)
    const { body } = await post(`/v1/bulk-embeddings/${job.id}/download-result`, key.apiKey)
    const url = new URL(body.download_url)
    const [row] = rowsOf<{ result_object: string }>(
      await database.db.execute(sql`select result_object from bulk_jobs where id = ${job.id}::uuid`),
    )
    await objectStorage().remove([row.result_object])

    const query = Object.fromEntries(url.searchParams)
    const gone = await call('GET', url.pathname, { query })
    expect(gone.status).toBe(410)
    expect(gone.body.detail).toMatch(/no longer stored/)
  })
})

describe('a job the ledger stops (an empty balance, a spending cap)', () => {
  it('settles the refused debit and logs the end as one JSON line, with no unhandled rejection', async () => {
    const unhandled: unknown[] = []
    const onUnhandled = (reason: unknown) => void unhandled.push(reason)
    process.on('unhandledRejection', onUnhandled)
    const level = process.env.LOG_LEVEL
    process.env.LOG_LEVEL = 'info'
    const lines: string[] = []
    const logged = vi.spyOn(console, 'log').mockImplementation((line: unknown) => void lines.push(String(line)))
    try {
      const empty = await keyWithBalance(database.db, 1)
      const capped = await keyWithBalance(database.db, 1_000_000)
      await database.db.execute(sql`update api_keys set daily_cap = 1 where id = ${capped.id}::uuid`)
      const jobs = [await submit(empty.apiKey, texts(3)), await submit(capped.apiKey, texts(3))]
      await drainQueue(database.db)
      // Node reports an unhandled rejection once the microtasks of the turn it happened in have run.
      await new Promise((resolve) => setImmediate(resolve))

      expect(unhandled).toEqual([])
      expect((await jobOf(empty.apiKey, jobs[0].id)).body.error).toMatch(/balance ran out/)
      expect((await jobOf(capped.apiKey, jobs[1].id)).body.error).toMatch(/daily spending cap of 1 tokens/)
      for (const job of jobs) {
        // Besides the request lines of the calls that read the job.
        const mine = lines.filter((line) => line.includes(job.id) && JSON.parse(line).msg !== 'request')
        expect(mine).toHaveLength(1)
        expect(JSON.parse(mine[0])).toMatchObject({ level: 'info', msg: 'bulk job ended', status: 'failed' })
      }
    } finally {
      logged.mockRestore()
      process.env.LOG_LEVEL = level
      process.off('unhandledRejection', onUnhandled)
    }
  })
})

/**
 * Storage whose writes fail from the `from`th part on, as a full disk answers them: the error Node's fs gives
 * for ENOSPC (a real full disk needs a mount, see the notes of issue 38; this is its exact error shape).
 */
function fullFrom(storage: ObjectStorage, from: number): ObjectStorage {
  return {
    ...storage,
    async write(key, body, type) {
      const part = /\/parts\/(\d+)\.jsonl$/.exec(key)
      if (!part || Number(part[1]) >= from)
        if (!key.endsWith('/input.jsonl'))
          throw Object.assign(new Error(`ENOSPC: no space left on device, open '${key}.partial'`), {
            code: 'ENOSPC',
            errno: -28,
            syscall: 'open',
          })
      return storage.write(key, body, type)
    },
  }
}

describe('a storage that cannot store (a full disk)', () => {
  it('fails the job with the reason, charges only the batches it stored, is never claimed again, and a retry finishes it', async () => {
    const list = texts(size * 4)
    const stored = tokensOf(list.slice(0, size * 2))
    const key = await keyWithBalance(database.db, 1_000_000)
    const job = await submit(key.apiKey, list)
    await drainQueue(database.db, { storage: fullFrom(objectStorage(), 2) })

    const { body: failed } = await jobOf(key.apiKey, job.id)
    expect(failed).toMatchObject({ status: 'failed', processed_rows: size * 2, used_token_count: stored })
    expect(failed.error).toBe('Storing the result failed: the storage is full (ENOSPC); retry the job once it has room')
    expect(await balanceOf(key.id)).toBe(1_000_000 - stored)
    // Nothing left to re-claim, charge again or fail "5 times" later.
    expect(await drainQueue(database.db)).toBe(0)
    expect(await balanceOf(key.id)).toBe(1_000_000 - stored)
    // The partial result is assembled once the storage has room again (here: at the download).
    expect(await downloadResult(key.apiKey, job.id)).toHaveLength(size * 2)

    await post(`/v1/bulk-embeddings/${job.id}/retry`, key.apiKey)
    await drainQueue(database.db)
    expect((await jobOf(key.apiKey, job.id)).body).toMatchObject({
      status: 'completed',
      processed_rows: list.length,
      used_token_count: tokensOf(list),
    })
    expect(await balanceOf(key.id)).toBe(1_000_000 - tokensOf(list))
    expect((await downloadResult(key.apiKey, job.id)).map((line) => line.index)).toEqual(list.map((_, i) => i))
  })

  it('charges nothing for a job whose first part cannot be stored, and ends it at once', async () => {
    const key = await keyWithBalance(database.db, 1_000_000)
    const job = await submit(key.apiKey, texts(10))
    await drainQueue(database.db, { storage: fullFrom(objectStorage(), 0) })
    expect((await jobOf(key.apiKey, job.id)).body).toMatchObject({
      status: 'failed',
      processed_rows: 0,
      used_token_count: 0,
    })
    expect(await balanceOf(key.id)).toBe(1_000_000)
    expect(await debitsOf(job.id)).toBe(0)
  })
})
