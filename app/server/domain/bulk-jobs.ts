import { and, desc, eq, sql, TransactionRollbackError } from 'drizzle-orm'
import { bulkLimits } from '~/contracts/bulk'
import { rowsOf } from '../db/rows'
import { bulkJobBatches, bulkJobs, emailOutbox } from '../db/schema'
import type { Db } from '../db/types'
import type { EntryResult } from './ledger'
import { consume, type ConsumeInput } from './metering'
import { noteLimitReached } from './limit-reached'
import { BulkJobNotFound, BulkJobState, SpendLimitReached } from './refusals'
import { emitJobCompleted } from './webhook-events'

export type BulkJobRow = typeof bulkJobs.$inferSelect

const isUuid = (id: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)

/** Where a job's files live in object storage. */
export const bulkObjects = {
  input: (jobId: string) => `bulk/${jobId}/input.jsonl`,
  part: (jobId: string, batch: number) => `bulk/${jobId}/parts/${String(batch).padStart(6, '0')}.jsonl`,
  result: (jobId: string) => `bulk/${jobId}/result.jsonl`,
}

export interface NewBulkJob {
  id: string
  keyId: string
  model: string
  fileName: string
  userEmail: string | undefined
  totalRows: number
  totalTokens: number
}

export async function createBulkJob(db: Db, job: NewBulkJob): Promise<BulkJobRow> {
  const [row] = await db
    .insert(bulkJobs)
    .values({ ...job, batchSize: bulkLimits.batchSize, inputObject: bulkObjects.input(job.id) })
    .returning()
  return row
}

/** A job of this key; another key's job, or none, reads as not found. */
export async function bulkJobOf(db: Db, keyId: string, id: string): Promise<BulkJobRow> {
  if (!isUuid(id)) throw new BulkJobNotFound()
  const [row] = await db
    .select()
    .from(bulkJobs)
    .where(and(eq(bulkJobs.id, id), eq(bulkJobs.keyId, keyId), eq(bulkJobs.kind, 'embeddings')))
  if (!row) throw new BulkJobNotFound()
  return row
}

/** Any key's job, for a caller that proved access another way (a signed download link). */
export async function bulkJobById(db: Db, id: string): Promise<BulkJobRow> {
  if (!isUuid(id)) throw new BulkJobNotFound()
  const [row] = await db
    .select()
    .from(bulkJobs)
    .where(and(eq(bulkJobs.id, id), eq(bulkJobs.kind, 'embeddings')))
  if (!row) throw new BulkJobNotFound()
  return row
}

export async function listBulkJobs(db: Db, keyId: string): Promise<BulkJobRow[]> {
  return db
    .select()
    .from(bulkJobs)
    .where(and(eq(bulkJobs.keyId, keyId), eq(bulkJobs.kind, 'embeddings')))
    .orderBy(desc(bulkJobs.createdAt))
    .limit(bulkLimits.listed)
}

export const cancelledError = 'Cancelled on request'

/**
 * Stops a waiting or running job: it fails at once with `cancelledError`. A worker on it finds its lease
 * gone at its next batch and stops there; the rows done so far stay downloadable.
 */
export async function cancelBulkJob(db: Db, keyId: string, id: string): Promise<BulkJobRow> {
  await bulkJobOf(db, keyId, id)
  const [row] = await db
    .update(bulkJobs)
    .set({ status: 'failed', error: cancelledError, completedAt: sql`now()`, leaseOwner: null, leaseUntil: null })
    .where(and(eq(bulkJobs.id, id), sql`${bulkJobs.status} in ('waiting', 'in-progress')`))
    .returning()
  if (!row) throw new BulkJobState('The job has already finished')
  return row
}

/** Queues a failed job again; it resumes after its last committed batch, so nothing done is charged again. */
export async function retryBulkJob(db: Db, keyId: string, id: string): Promise<BulkJobRow> {
  await bulkJobOf(db, keyId, id)
  const [row] = await db
    .update(bulkJobs)
    .set({ status: 'waiting', error: null, completedAt: null, resultObject: null, resultRows: null, claims: 0 })
    .where(and(eq(bulkJobs.id, id), eq(bulkJobs.status, 'failed')))
    .returning()
  if (!row) throw new BulkJobState('Only a failed job can be retried')
  return row
}

/**
 * Takes the oldest job no live worker holds (waiting, or running under an expired lease) and leases it to
 * `worker`. SKIP LOCKED lets any number of instances claim at once without waiting on each other.
 */
export async function claimBulkJob(db: Db, worker: string, leaseSeconds: number): Promise<BulkJobRow | undefined> {
  const rows = rowsOf<{ id: string }>(
    await db.execute(sql`
      update bulk_jobs set status = 'in-progress', lease_owner = ${worker},
        lease_until = now() + make_interval(secs => ${leaseSeconds}), claims = claims + 1,
        started_at = coalesce(started_at, now())
      where id = (
        select id from bulk_jobs
        where status in ('waiting', 'in-progress') and (lease_until is null or lease_until < now())
        order by created_at limit 1 for update skip locked)
      returning id`),
  )
  if (rows.length === 0) return undefined
  const [row] = await db.select().from(bulkJobs).where(eq(bulkJobs.id, rows[0].id))
  return row
}

export interface CommittedBatch {
  jobId: string
  batchIndex: number
  rows: number
  /** Of `rows`, those answered with an error (a batch's lines; bulk embeddings have none). */
  failedRows?: number
  tokens: number
  worker: string
  leaseSeconds: number
  /**
   * The batch's debits, each named after the job and the batch (one per product and model a batch's lines
   * used; none when nothing is owed).
   */
  charges: ConsumeInput[]
}

/**
 * Charges a stored batch, records it as done and moves the job past it, renewing the worker's lease: one
 * transaction, so a batch is charged exactly when it is recorded and never for a result that was not stored
 * (a crash before it leaves nothing to give back). The key row is locked before the job's, in the order a
 * transfer takes them. `lost` when the worker no longer holds the job (its lease ran out and another took
 * over, or it was cancelled) or the batch was committed already: then nothing changes, the debit included,
 * and the worker stops. A refused debit (the balance ran out, a cap, the key's controls) is thrown as its refusal.
 */
export async function commitBulkBatch(
  db: Db,
  batch: CommittedBatch,
): Promise<{ outcome: 'committed'; charged: EntryResult[] } | { outcome: 'lost' }> {
  const failedRows = batch.failedRows ?? 0
  return db
    .transaction(async (tx) => {
      const charged: EntryResult[] = []
      for (const charge of batch.charges) if (charge.tokens > 0) charged.push(await consume(tx, charge))
      const moved = await tx
        .update(bulkJobs)
        .set({
          nextBatch: batch.batchIndex + 1,
          processedRows: sql`${bulkJobs.processedRows} + ${batch.rows}`,
          failedRows: sql`${bulkJobs.failedRows} + ${failedRows}`,
          usedTokenCount: sql`${bulkJobs.usedTokenCount} + ${batch.tokens}`,
          leaseUntil: sql`now() + make_interval(secs => ${batch.leaseSeconds})`,
        })
        .where(
          and(
            eq(bulkJobs.id, batch.jobId),
            eq(bulkJobs.leaseOwner, batch.worker),
            eq(bulkJobs.status, 'in-progress'),
            eq(bulkJobs.nextBatch, batch.batchIndex),
          ),
        )
        .returning({ id: bulkJobs.id })
      if (moved.length === 0) tx.rollback()
      const inserted = await tx
        .insert(bulkJobBatches)
        .values({
          jobId: batch.jobId,
          batchIndex: batch.batchIndex,
          rows: batch.rows,
          failedRows,
          tokens: batch.tokens,
          worker: batch.worker,
        })
        .onConflictDoNothing()
        .returning({ batchIndex: bulkJobBatches.batchIndex })
      if (inserted.length === 0) tx.rollback()
      return { outcome: 'committed' as const, charged }
    })
    .catch(async (error: unknown) => {
      // Drizzle names its rollback error DrizzleError, so it is told by its class, not its name.
      if (error instanceof TransactionRollbackError) return { outcome: 'lost' as const }
      // The refusal rolled the batch's transaction back: its limit is noted (and told of) outside it.
      const refused = batch.charges.find((charge) => charge.tokens > 0)
      if (error instanceof SpendLimitReached && refused) await noteLimitReached(db, refused.keyId, error.limit)
      throw error
    })
}

/** Keeps a worker's hold on a job while one batch takes long (a slow engine), so no other worker takes it over. */
export async function renewBulkLease(db: Db, jobId: string, worker: string, leaseSeconds: number): Promise<boolean> {
  const rows = await db
    .update(bulkJobs)
    .set({ leaseUntil: sql`now() + make_interval(secs => ${leaseSeconds})` })
    .where(and(eq(bulkJobs.id, jobId), eq(bulkJobs.leaseOwner, worker), eq(bulkJobs.status, 'in-progress')))
    .returning({ id: bulkJobs.id })
  return rows.length > 0
}

/** Lets another worker take the job at once (a stopping server), instead of after the lease runs out. */
export async function releaseBulkJob(db: Db, jobId: string, worker: string): Promise<void> {
  await db
    .update(bulkJobs)
    .set({ leaseOwner: null, leaseUntil: null })
    .where(and(eq(bulkJobs.id, jobId), eq(bulkJobs.leaseOwner, worker), eq(bulkJobs.status, 'in-progress')))
}

export interface JobMail {
  to: string
  subject: string
  text: string
}

/**
 * Ends a job the worker holds as completed or failed, queueing its notice in the same transaction, so the
 * mail goes exactly when the job ends. False when the worker no longer held it (nothing changed, no mail).
 */
export async function endBulkJob(
  db: Db,
  end: { jobId: string; worker: string; status: 'completed' | 'failed'; error?: string; mail?: JobMail },
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const ended = await tx
      .update(bulkJobs)
      .set({
        status: end.status,
        error: end.error ?? null,
        completedAt: sql`now()`,
        leaseOwner: null,
        leaseUntil: null,
      })
      .where(and(eq(bulkJobs.id, end.jobId), eq(bulkJobs.leaseOwner, end.worker), eq(bulkJobs.status, 'in-progress')))
      .returning({
        id: bulkJobs.id,
        keyId: bulkJobs.keyId,
        kind: bulkJobs.kind,
        model: bulkJobs.model,
        totalRows: bulkJobs.totalRows,
        processedRows: bulkJobs.processedRows,
      })
    if (ended.length === 0) return false
    if (end.status === 'completed') await emitJobCompleted(tx, ended[0])
    if (end.mail)
      await tx.insert(emailOutbox).values({ ...end.mail, kind: `bulk-job-${end.status}`, meta: { job_id: end.jobId } })
    return true
  })
}

/** Records the assembled result file (every committed row, in input order). */
export async function recordBulkResult(db: Db, jobId: string, object: string, rows: number): Promise<void> {
  await db.update(bulkJobs).set({ resultObject: object, resultRows: rows }).where(eq(bulkJobs.id, jobId))
}

/** The batches committed for a job, in order: what its result file is assembled from. */
export async function committedBatches(
  db: Db,
  jobId: string,
): Promise<Array<{ batchIndex: number; rows: number; failedRows: number }>> {
  return db
    .select({ batchIndex: bulkJobBatches.batchIndex, rows: bulkJobBatches.rows, failedRows: bulkJobBatches.failedRows })
    .from(bulkJobBatches)
    .where(eq(bulkJobBatches.jobId, jobId))
    .orderBy(bulkJobBatches.batchIndex)
}

/** The bulk queue's depth: jobs waiting to be claimed and jobs some worker holds, shared by every instance. */
export async function bulkQueueDepth(db: Db): Promise<Array<{ status: string; jobs: number }>> {
  const rows = rowsOf<{ status: string; jobs: number | string }>(
    await db.execute(sql`
      select s.status, count(j.id)::int as jobs
      from (values ('waiting'), ('in-progress')) as s(status)
      left join bulk_jobs j on j.status = s.status
      group by s.status`),
  )
  return rows.map((row) => ({ status: row.status, jobs: Number(row.jobs) }))
}
