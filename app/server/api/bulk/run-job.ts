import {
  bulkObjects,
  commitBulkBatch,
  committedBatches,
  endBulkJob,
  releaseBulkJob,
  renewBulkLease,
  type BulkJobRow,
} from '../../domain/bulk-jobs'
import { periodAdjective, spendLimitText } from '~/contracts/spend-limits'
import type { Db } from '../../db/types'
import { ownerEmailOf } from '../../domain/owner-email'
import {
  EngineRefused,
  InsufficientBalance,
  KeyExpired,
  KeyOutOfScope,
  KeyRevoked,
  SpendCapReached,
  SpendLimitReached,
} from '../../domain/refusals'
import { errorFields, log } from '../../log'
import { kickOutbox } from '../../providers/email'
import { afterLedger } from '../after-ledger'
import type { EmbeddingEngine } from '../../providers/inference/engines'
import type { ObjectStorage } from '../../providers/storage'
import { assembleResult, removeParts } from './assemble'
import { inputBatches, type InputBatch } from './input-batches'
import { bulkJobMail } from './job-mail'
import { formatResultLines } from './line-writer'

export interface WorkerContext {
  db: Db
  storage: ObjectStorage
  engine: EmbeddingEngine
  /** This worker's name in the lease columns: unique per process. */
  worker: string
  leaseSeconds: number
  /** How often the lease is renewed while a job runs (default: three times a lease). */
  heartbeatMs?: number
  /** True once the server is stopping: the job is handed back after the batch under way. */
  stopping: () => boolean
}

/** A job that kills its worker this often (a crash, an out-of-memory) is failed instead of taken again. */
export const MAX_CLAIMS = 5

/** What computing a batch came to: its vectors, or why the job stops there. */
type Computed = { kind: 'computed'; batch: InputBatch; vectors: Float32Array[] } | { kind: 'failed'; error: string }

/** What saving a batch came to: stored and charged, the job lost to another worker, or why the job stops. */
type Saved = { kind: 'saved'; tokens: number } | { kind: 'lost' } | { kind: 'failed'; error: string }

/**
 * A batch computed. Nothing is charged yet: a batch is charged when its result is stored (`saveBatch`), so a
 * failing engine, a full disk or a crash in between costs the key nothing and leaves nothing to give back.
 */
async function computeBatch(ctx: WorkerContext, job: BulkJobRow, batch: InputBatch): Promise<Computed> {
  const options = { requestedModel: job.model, task: undefined, lateChunking: false }
  try {
    return { kind: 'computed', batch, vectors: (await ctx.engine.embed(batch.texts, options)).vectors }
  } catch (error) {
    log('warn', 'bulk job batch failed', { job_id: job.id, batch: batch.index, error: errorFields(error) })
    const detail = error instanceof EngineRefused ? error.detail : 'the embedding engine failed'
    return { kind: 'failed', error: `Embedding failed: ${detail}` }
  }
}

/** Why the ledger refused a batch's debit (the balance, or the key's controls changed while the job ran), if it did. */
export function chargeStop(reason: unknown): string | undefined {
  if (reason instanceof InsufficientBalance) return "The key's balance ran out: top up the key and retry the job"
  if (reason instanceof SpendCapReached)
    return `The key's ${reason.period === 'day' ? 'daily' : 'monthly'} spending cap of ${reason.cap.toLocaleString('en-US')} tokens was reached: retry the job after ${reason.resetsAt.toISOString()}`
  if (reason instanceof SpendLimitReached)
    return `The key's ${periodAdjective(reason.limit.period)} spend limit of ${spendLimitText(reason.limit.unit, reason.limit.amount)} was reached: retry the job after ${reason.limit.resetsAt.toISOString()}`
  if (reason instanceof KeyExpired) return 'The key has expired'
  if (reason instanceof KeyOutOfScope) return "The key's controls no longer allow bulk embeddings with this model"
  if (reason instanceof KeyRevoked)
    return 'The key was revoked or its balance transferred: retry the job with the key that holds it now'
  return undefined
}

/** Why a batch's result could not be stored, in words that name no path or bucket. */
export function storageStop(error: unknown): string {
  const code = (error as { code?: unknown } | undefined)?.code
  const why =
    code === 'ENOSPC'
      ? 'the storage is full (ENOSPC)'
      : code === 'EDQUOT'
        ? "the storage's quota is used up (EDQUOT)"
        : 'the storage refused the write'
  return `Storing the result failed: ${why}; retry the job once it has room`
}

/**
 * Stores a computed batch's part file, then charges and commits the batch in one transaction, so a committed
 * batch always has its rows and a batch is charged only once its rows are stored. A storage that cannot take
 * the part (a full disk, any storage error) stops the job with the reason, that batch uncharged.
 */
async function saveBatch(
  ctx: WorkerContext,
  job: BulkJobRow,
  { batch, vectors }: { batch: InputBatch; vectors: Float32Array[] },
): Promise<Saved> {
  const lines = await formatResultLines(batch, vectors)
  try {
    await ctx.storage.write(bulkObjects.part(job.id, batch.index), [lines], 'application/x-ndjson')
  } catch (error) {
    log('error', 'bulk job part not stored', { job_id: job.id, batch: batch.index, error: errorFields(error) })
    return { kind: 'failed', error: storageStop(error) }
  }
  try {
    const committed = await commitBulkBatch(ctx.db, {
      jobId: job.id,
      batchIndex: batch.index,
      rows: batch.texts.length,
      tokens: batch.tokens,
      worker: ctx.worker,
      leaseSeconds: ctx.leaseSeconds,
      charges: [
        {
          keyId: job.keyId,
          tokens: batch.tokens,
          product: 'bulk-embeddings',
          model: job.model,
          usageEventId: `bulk:${job.id}:${batch.index}`,
        },
      ],
    })
    if (committed.outcome === 'lost') return { kind: 'lost' }
    committed.charged.forEach(afterLedger)
    return { kind: 'saved', tokens: batch.tokens }
  } catch (error) {
    const stopped = chargeStop(error)
    if (stopped) return { kind: 'failed', error: stopped }
    throw error
  }
}

/** Ends the job, with its result assembled from what was done and its notice queued. */
async function finish(
  ctx: WorkerContext,
  job: BulkJobRow,
  end: { status: 'completed' | 'failed'; error?: string; tokens: number },
): Promise<void> {
  // A worker that lost the job (its lease ran out while it was stopped) leaves its result to the new holder.
  if (!(await renewBulkLease(ctx.db, job.id, ctx.worker, ctx.leaseSeconds))) return
  const rows = await assembleResult(ctx.db, ctx.storage, job).catch(async (error: unknown) => {
    // The storage cannot take the result now (a full disk): the job ends all the same, and its result is
    // assembled when it is first downloaded, as a cancelled job's is.
    log('error', 'bulk job result not assembled', { job_id: job.id, error: errorFields(error) })
    return (await committedBatches(ctx.db, job.id)).reduce((sum, batch) => sum + batch.rows, 0)
  })
  const to = job.userEmail ?? (await ownerEmailOf(ctx.db, job.keyId))
  const mail = to ? bulkJobMail(to, job, { ...end, rows }) : undefined
  if (!(await endBulkJob(ctx.db, { jobId: job.id, worker: ctx.worker, ...end, mail }))) return
  // One line per job that ends, a stopped one with its reason: a cap or an empty balance is the owner's
  // setting or state, so it is logged as a refusal is, at info.
  log('info', 'bulk job ended', { job_id: job.id, status: end.status, error: end.error, rows, tokens: end.tokens })
  if (mail) kickOutbox()
  if (end.status === 'completed') await removeParts(ctx.db, ctx.storage, job.id)
}

/** Works a claimed job from its first uncommitted batch to its end, or until it is lost or the server stops. */
export async function runBulkJob(ctx: WorkerContext, job: BulkJobRow): Promise<void> {
  let tokens = job.usedTokenCount
  if (job.claims > MAX_CLAIMS)
    return finish(ctx, job, { status: 'failed', error: `The job stopped its worker ${MAX_CLAIMS} times`, tokens })
  // A slow engine must not let the lease run out under a batch: renew it meanwhile.
  const heartbeat = setInterval(
    () => void renewBulkLease(ctx.db, job.id, ctx.worker, ctx.leaseSeconds).catch(() => undefined),
    ctx.heartbeatMs ?? (ctx.leaseSeconds * 1000) / 3,
  )
  // One batch is saved (its lines written on their own thread, its part stored and committed) while the
  // engine computes the next; the batches still commit in order.
  let saving: Promise<Saved> | undefined
  /** Waits for the batch being saved: true to go on; false once the job is lost, or failed and ended here. */
  const saved = async () => {
    const outcome = await saving
    saving = undefined
    if (outcome?.kind === 'saved') tokens += outcome.tokens
    if (outcome?.kind === 'failed') await finish(ctx, job, { status: 'failed', error: outcome.error, tokens })
    return outcome === undefined || outcome.kind === 'saved'
  }
  try {
    const input = await ctx.storage.read(job.inputObject)
    for await (const batch of inputBatches(input, job.batchSize, job.nextBatch)) {
      if (ctx.stopping()) {
        if (await saved()) await releaseBulkJob(ctx.db, job.id, ctx.worker)
        return
      }
      const computed = await computeBatch(ctx, job, batch)
      if (!(await saved())) return
      if (computed.kind === 'failed') return await finish(ctx, job, { status: 'failed', error: computed.error, tokens })
      saving = saveBatch(ctx, job, computed)
      // An unexpected failure (the database) is rethrown where it is awaited, after the next batch is computed;
      // meanwhile Node would call it unhandled and stop the process, not just end the run.
      saving.catch(() => undefined)
    }
    if (await saved()) await finish(ctx, job, { status: 'completed', tokens })
  } finally {
    clearInterval(heartbeat)
  }
}
