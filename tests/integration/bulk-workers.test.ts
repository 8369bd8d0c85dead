import { sql } from 'drizzle-orm'
import { rmSync } from 'node:fs'
import { afterAll, expect, it } from 'vitest'
import { bulkLimits } from '~/contracts/bulk'
import { rowsOf } from '~/server/db/rows'
import { engines } from '~/server/providers/inference/select'
import type { EmbeddingEngine } from '~/server/providers/inference/engines'
import { countTokens } from '../support/tokens'
import { downloadResult, drainQueue, jobOf, upload, uploadForm } from '../support/bulk'
import { describeWithService } from '../support/services'
import { keyWithBalance, scalar, apiDatabase } from '../support/api'

const dataDir = `tests/.tmp/bulk-workers-${process.pid}`

describeWithService('TEST_DATABASE_URL', 'bulk job workers on real Postgres', () => {
  const database = apiDatabase({ env: { DATA_DIR: dataDir, JOB_WORKER: 'off' }, maxConnections: 10 })
  afterAll(() => {
    rmSync(dataDir, { recursive: true, force: true })
  })

  const size = bulkLimits.batchSize
  const texts = (job: number) => Array.from({ length: size * 3 - 7 }, (_, i) => `job ${job} text ${i} about ranking`)

  /** An engine that stalls on its first batch longer than a lease lasts, as a worker paused by the machine would. */
  function stallingOnce(engine: EmbeddingEngine, ms: number): EmbeddingEngine {
    let stalled = false
    return {
      ...engine,
      kind: engine.kind,
      async embed(list, options) {
        if (!stalled) {
          stalled = true
          await new Promise((resolve) => setTimeout(resolve, ms))
        }
        return engine.embed(list, options)
      },
    }
  }

  it('never lets two workers commit the same batch, even when one stalls past its lease, and charges each batch once', async () => {
    const key = await keyWithBalance(database.db, 10_000_000)
    const jobs: Array<{ id: string; list: string[] }> = []
    for (let n = 0; n < 5; n++) {
      const list = texts(n)
      const { body } = await upload(key.apiKey, uploadForm(`job-${n}.txt`, list.join('\n'), { model: 'embeddings-v3' }))
      jobs.push({ id: body.id, list })
    }
    const engine = (await engines()).embeddings
    const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
    // The stalled worker takes the oldest job and stops renewing its lease mid-batch; the others work the
    // rest, and once that lease has run out one of them takes the stalled job over.
    const stalled = drainQueue(database.db, {
      worker: 'stalled',
      engine: stallingOnce(engine, 2500),
      leaseSeconds: 1,
      heartbeatMs: 60_000,
    })
    await sleep(100)
    await Promise.all([
      drainQueue(database.db, { worker: 'steady', leaseSeconds: 1 }),
      drainQueue(database.db, { worker: 'third', leaseSeconds: 1 }),
    ])
    await sleep(1200)
    await drainQueue(database.db, { worker: 'late', leaseSeconds: 1 })
    await stalled

    const batches = rowsOf<{ job_id: string; batch_index: number; n: number }>(
      await database.db.execute(
        sql`select job_id, batch_index, count(*)::int as n from bulk_job_batches group by 1, 2`,
      ),
    )
    expect(batches).toHaveLength(jobs.length * 3)
    expect(batches.every((batch) => batch.n === 1)).toBe(true)
    const workers = await scalar(database.db, sql`select count(distinct worker) from bulk_job_batches`)
    expect(workers).toBeGreaterThan(1)
    const stolen = await scalar(
      database.db,
      sql`select count(*) from bulk_jobs j where exists (select 1 from bulk_job_batches b where b.job_id = j.id and b.batch_index = 0 and b.worker <> 'stalled') and j.claims > 1`,
    )
    expect(stolen).toBeGreaterThanOrEqual(1)

    let charged = 0
    for (const job of jobs) {
      const { body } = await jobOf(key.apiKey, job.id)
      const tokens = job.list.reduce((sum, text) => sum + countTokens(text), 0)
      expect(body).toMatchObject({ status: 'completed', processed_rows: job.list.length, used_token_count: tokens })
      const debits = await scalar(
        database.db,
        sql`select count(*) from ledger_entries where external_ref like ${`usage:bulk:${job.id}:%`}`,
      )
      expect(debits).toBe(3)
      const lines = await downloadResult(key.apiKey, job.id)
      expect(lines.map((line) => line.index)).toEqual(job.list.map((_, i) => i))
      charged += tokens
    }
    expect(await scalar(database.db, sql`select balance from api_keys where id = ${key.id}::uuid`)).toBe(
      10_000_000 - charged,
    )
  })
})
