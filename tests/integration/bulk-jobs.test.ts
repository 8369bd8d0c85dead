import { sql } from 'drizzle-orm'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { bulkLimits } from '~/contracts/bulk'
import { Route as cancelRoute } from '~/routes/v1/bulk-embeddings/$id/cancel'
import { Route as downloadRoute } from '~/routes/v1/bulk-embeddings/$id/download-result'
import { Route as resultRoute } from '~/routes/v1/bulk-embeddings/$id/result'
import { Route as retryRoute } from '~/routes/v1/bulk-embeddings/$id/retry'
import { Route as listRoute } from '~/routes/v1/bulk-embeddings/index'
import { rowsOf } from '~/server/db/migrate'
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
const post = (route: Parameters<typeof call>[0], path: string, bearer: string, id: string) =>
  call(route, 'POST', path, { bearer, params: { id } })

/** Storage that fails once, as a process killed between charging a batch and committing it would. */
function crashingOnce(storage: ObjectStorage, partOf: (key: string) => boolean): ObjectStorage {
  let crashed = false
  return {
    ...storage,
    async write(key, body, type) {
      if (!crashed && partOf(key)) {
        crashed = true
        throw new Error('process killed')
      }
      return storage.write(key, body, type)
    },
  }
}

describe('a job interrupted by a restart', () => {
  it('resumes from its last committed batch on another worker and charges each batch once', async () => {
    const key = await keyWithBalance(database.db, 1_000_000)
    const list = texts(size * 3 + 10)
    const job = await submit(key.apiKey, list)
    const storage = crashingOnce(objectStorage(), (k) => k.endsWith('/parts/000002.jsonl'))
    // The first worker charges batch 2, then dies before committing it; its lease still holds the job.
    await expect(drainQueue(database.db, { storage, leaseSeconds: 1 })).rejects.toThrow('process killed')
    expect((await jobOf(key.apiKey, job.id)).body).toMatchObject({ status: 'in-progress', processed_rows: size * 2 })
    expect(await drainQueue(database.db)).toBe(0) // nobody may take it while the lease holds
    await new Promise((resolve) => setTimeout(resolve, 1100))
    expect(await drainQueue(database.db)).toBe(1)

    const { body: done } = await jobOf(key.apiKey, job.id)
    expect(done).toMatchObject({ status: 'completed', processed_rows: list.length, used_token_count: tokensOf(list) })
    expect(await debitsOf(job.id)).toBe(4)
    expect(await balanceOf(key.id)).toBe(1_000_000 - tokensOf(list))
    const lines = await downloadResult(key.apiKey, job.id)
    expect(lines.map((line) => line.index)).toEqual(list.map((_, i) => i))
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
    expect((await post(retryRoute, `/v1/bulk-embeddings/${job.id}/retry`, key.apiKey, job.id)).body.status).toBe(
      'waiting',
    )
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
    expect(
      (await post(downloadRoute, `/v1/bulk-embeddings/${job.id}/download-result`, key.apiKey, job.id)).status,
    ).toBe(409)
    const cancelled = await post(cancelRoute, `/v1/bulk-embeddings/${job.id}/cancel`, key.apiKey, job.id)
    expect(cancelled.body).toMatchObject({ status: 'failed', error: 'Cancelled on request', downloadable: false })
    expect((await post(cancelRoute, `/v1/bulk-embeddings/${job.id}/cancel`, key.apiKey, job.id)).status).toBe(409)
    expect(await drainQueue(database.db)).toBe(0)
    expect(
      (await post(downloadRoute, `/v1/bulk-embeddings/${job.id}/download-result`, key.apiKey, job.id)).status,
    ).toBe(409)
    await post(retryRoute, `/v1/bulk-embeddings/${job.id}/retry`, key.apiKey, job.id)
    await drainQueue(database.db)
    expect((await jobOf(key.apiKey, job.id)).body.status).toBe('completed')
    expect((await post(retryRoute, `/v1/bulk-embeddings/${job.id}/retry`, key.apiKey, job.id)).status).toBe(409)
  })

  it("shows another key's job to nobody but its own key", async () => {
    const owner = await keyWithBalance(database.db, 1_000_000)
    const other = await keyWithBalance(database.db, 1_000_000)
    const job = await submit(owner.apiKey, texts(3))
    await drainQueue(database.db)
    expect((await jobOf(other.apiKey, job.id)).status).toBe(404)
    for (const route of [cancelRoute, retryRoute, downloadRoute])
      expect((await post(route, `/v1/bulk-embeddings/${job.id}/x`, other.apiKey, job.id)).status).toBe(404)
    const { body: list } = await call(listRoute, 'GET', '/v1/bulk-embeddings', { bearer: other.apiKey })
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
    const { body } = await post(downloadRoute, `/v1/bulk-embeddings/${job.id}/download-result`, key.apiKey, job.id)
    const url = new URL(body.download_url)
    expect(url.pathname).toBe(`/v1/bulk-embeddings/${job.id}/result`)
    expect(new Date(body.expires_at).getTime() - Date.now()).toBeGreaterThan(3500_000)
    const fetchLink = (id: string, query: Record<string, string>) =>
      call(resultRoute, 'GET', `/v1/bulk-embeddings/${id}/result`, { query, params: { id } })
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
    const { body } = await post(downloadRoute, `/v1/bulk-embeddings/${job.id}/download-result`, key.apiKey, job.id)
    const url = new URL(body.download_url)
    const [row] = rowsOf<{ result_object: string }>(
      await database.db.execute(sql`select result_object from bulk_jobs where id = ${job.id}::uuid`),
    )
    await objectStorage().remove([row.result_object])

    const query = Object.fromEntries(url.searchParams)
    const gone = await call(resultRoute, 'GET', url.pathname, { query, params: { id: job.id } })
    expect(gone.status).toBe(410)
    expect(gone.body.detail).toMatch(/no longer stored/)
  })
})
