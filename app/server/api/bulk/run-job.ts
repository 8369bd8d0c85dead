import {
  bulkObjects,
  commitBulkBatch,
  endBulkJob,
  releaseBulkJob,
  renewBulkLease,
  type BulkJobRow,
} from '../../domain/bulk-jobs'
import type { Db } from '../../db/types'
import { consume } from '../../domain/metering'
import { ownerEmailOf } from '../../domain/owner-email'
import { EngineRefused, InsufficientBalance, KeyExpired, KeyOutOfScope, SpendCapReached } from '../../domain/refusals'
import { errorFields, log } from '../../log'
import { kickOutbox } from '../../providers/email'
import { afterLedger } from '../after-ledger'
import type { EmbeddingEngine } from '../../providers/inference/engines'
import type { ObjectStorage } from '../../providers/storage'
import { giveBack } from '../search/charge'
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

/** What computing a batch came to: its vectors (charged), or why the job stops there. */
type Computed = { kind: 'computed'; batch: InputBatch; vectors: Float32Array[] } | { kind: 'failed'; error: string }

/** Until the event loop has run its pending I/O callbacks: the debit's batch is flushed to the database. */
const sent = () => new Promise((resolve) => setImmediate(resolve))

/**
 * A batch charged and computed: the debit is named after the job and the batch, so a batch run again after
 * a crash is never charged twice, and it is given back if the engine fails. The engine starts as soon as
 * the debit is on its way rather than after its answer: vectors of a batch whose debit is refused are
 * dropped, never saved (a batch is saved only once charged), so the overlap costs nothing but CPU once.
 */
async function computeBatch(ctx: WorkerContext, job: BulkJobRow, batch: InputBatch): Promise<Computed> {
  const usage = {
    tokens: batch.tokens,
    product: 'bulk-embeddings',
    model: job.model,
    usageEventId: `bulk:${job.id}:${batch.index}`,
  }
  const charging = consume(ctx.db, { keyId: job.keyId, ...usage })
  await sent()
  const options = { requestedModel: job.model, task: undefined, lateChunking: false }
  const [charged, computed] = await Promise.allSettled([charging, ctx.engine.embed(batch.texts, options)])
  if (charged.status === 'rejected') {
    if (charged.reason instanceof InsufficientBalance)
      return { kind: 'failed', error: "The key's balance ran out: top up the key and retry the job" }
    // The key's controls changed while the job ran: its owner's settings stop it, as they would a request.
    const stopped = controlsStop(charged.reason)
    if (stopped) return { kind: 'failed', error: stopped }
    throw charged.reason
  }
  afterLedger(charged.value)
  if (computed.status === 'fulfilled') return { kind: 'computed', batch, vectors: computed.value.vectors }
  if (!charged.value.duplicate) await giveBack(ctx.db, { id: job.keyId }, usage)
  log('warn', 'bulk job batch failed', { job_id: job.id, batch: batch.index, error: errorFields(computed.reason) })
  const detail = computed.reason instanceof EngineRefused ? computed.reason.detail : 'the embedding engine failed'
  return { kind: 'failed', error: `Embedding failed: ${detail}` }
}

/** Why the key's controls stopped a job (its owner may have changed them while it ran), if they did. */
function controlsStop(reason: unknown): string | undefined {
  if (reason instanceof SpendCapReached)
    return `The key's ${reason.period === 'day' ? 'daily' : 'monthly'} spending cap of ${reason.cap.toLocaleString('en-US')} tokens was reached: retry the job after ${reason.resetsAt.toISOString()}`
  if (reason instanceof KeyExpired) return 'The key has expired'
  if (reason instanceof KeyOutOfScope) return "The key's controls no longer allow bulk embeddings with this model"
  return undefined
}

/**
 * Writes a computed batch's part file, then commits the batch, so a committed batch always has its rows.
 * `lost` when the worker no longer holds the job.
 */
async function saveBatch(
  ctx: WorkerContext,
  job: BulkJobRow,
  { batch, vectors }: { batch: InputBatch; vectors: Float32Array[] },
) {
  const lines = await formatResultLines(batch, vectors)
  await ctx.storage.write(bulkObjects.part(job.id, batch.index), [lines], 'application/x-ndjson')
  const committed = await commitBulkBatch(ctx.db, {
    jobId: job.id,
    batchIndex: batch.index,
    rows: batch.texts.length,
    tokens: batch.tokens,
    worker: ctx.worker,
    leaseSeconds: ctx.leaseSeconds,
  })
  return committed === 'committed' ? { kind: 'saved' as const, tokens: batch.tokens } : { kind: 'lost' as const }
}

/** Ends the job, with its result assembled from what was done and its notice queued. */
async function finish(
  ctx: WorkerContext,
  job: BulkJobRow,
  end: { status: 'completed' | 'failed'; error?: string; tokens: number },
): Promise<void> {
  const rows = await assembleResult(ctx.db, ctx.storage, job)
  const to = job.userEmail ?? (await ownerEmailOf(ctx.db, job.keyId))
  const mail = to ? bulkJobMail(to, job, { ...end, rows }) : undefined
  if (!(await endBulkJob(ctx.db, { jobId: job.id, worker: ctx.worker, ...end, mail }))) return
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
  let saving: ReturnType<typeof saveBatch> | undefined
  const saved = async () => {
    const outcome = await saving
    saving = undefined
    if (outcome?.kind === 'saved') tokens += outcome.tokens
    return outcome?.kind !== 'lost'
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
      // Its failure is rethrown where it is awaited, after the next batch is computed; meanwhile Node would call
      // it unhandled and stop the process (a storage error would take the server down, not just end the run).
      saving.catch(() => undefined)
    }
    if (await saved()) await finish(ctx, job, { status: 'completed', tokens })
  } finally {
    clearInterval(heartbeat)
  }
}
