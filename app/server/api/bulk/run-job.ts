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
import { EngineRefused, InsufficientBalance } from '../../domain/refusals'
import { errorFields, log } from '../../log'
import { kickOutbox } from '../../providers/email'
import type { EmbeddingEngine } from '../../providers/inference/engines'
import { countTokens, truncateToTokens } from '../../providers/inference/tokens'
import type { ObjectStorage } from '../../providers/storage'
import { giveBack } from '../search/charge'
import { assembleResult, removeParts } from './assemble'
import { inputBatches, type InputBatch } from './input-batches'
import { bulkJobMail } from './job-mail'
import { resultLines } from './result-lines'

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

/** Metering tokens of a batch's texts, each cut to the engine's input limit as `truncate: true` would. */
async function meteredTexts(texts: string[], maxTokens: number): Promise<{ texts: string[]; tokens: number }> {
  let tokens = 0
  const kept: string[] = []
  for (const text of texts) {
    const count = countTokens(text)
    if (count <= maxTokens) {
      tokens += count
      kept.push(text)
    } else {
      const cut = await truncateToTokens(text, maxTokens)
      tokens += cut.tokens
      kept.push(cut.text)
    }
  }
  return { texts: kept, tokens }
}

type BatchOutcome = { kind: 'done'; tokens: number } | { kind: 'lost' } | { kind: 'failed'; error: string }

/**
 * One batch, charged before it is computed: the debit is named after the job and the batch, so a batch run
 * again after a crash is never charged twice, and it is given back if the engine fails. The part file is
 * written before the batch is committed, so a committed batch always has its rows.
 */
async function runBatch(ctx: WorkerContext, job: BulkJobRow, batch: InputBatch): Promise<BatchOutcome> {
  const { texts, tokens } = await meteredTexts(batch.texts, ctx.engine.maxInputTokens)
  const usage = { tokens, product: 'bulk-embeddings', model: job.model, usageEventId: `bulk:${job.id}:${batch.index}` }
  let charged
  try {
    charged = await consume(ctx.db, { keyId: job.keyId, ...usage })
  } catch (error) {
    if (error instanceof InsufficientBalance)
      return { kind: 'failed', error: "The key's balance ran out: top up the key and retry the job" }
    throw error
  }
  if (charged.alerts > 0) kickOutbox()
  let vectors: Float32Array[]
  try {
    vectors = (await ctx.engine.embed(texts, { requestedModel: job.model, task: undefined, lateChunking: false }))
      .vectors
  } catch (error) {
    if (!charged.duplicate) await giveBack(ctx.db, { id: job.keyId }, usage)
    log('warn', 'bulk job batch failed', { job_id: job.id, batch: batch.index, error: errorFields(error) })
    const detail = error instanceof EngineRefused ? error.detail : 'the embedding engine failed'
    return { kind: 'failed', error: `Embedding failed: ${detail}` }
  }
  await ctx.storage.write(bulkObjects.part(job.id, batch.index), [resultLines(batch, vectors)], 'application/x-ndjson')
  const committed = await commitBulkBatch(ctx.db, {
    jobId: job.id,
    batchIndex: batch.index,
    rows: texts.length,
    tokens,
    worker: ctx.worker,
    leaseSeconds: ctx.leaseSeconds,
  })
  return committed === 'committed' ? { kind: 'done', tokens } : { kind: 'lost' }
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
  try {
    const input = await ctx.storage.read(job.inputObject)
    for await (const batch of inputBatches(input, job.batchSize, job.nextBatch)) {
      if (ctx.stopping()) return await releaseBulkJob(ctx.db, job.id, ctx.worker)
      const outcome = await runBatch(ctx, job, batch)
      if (outcome.kind === 'lost') return
      if (outcome.kind === 'failed') return await finish(ctx, job, { status: 'failed', error: outcome.error, tokens })
      tokens += outcome.tokens
    }
    await finish(ctx, job, { status: 'completed', tokens })
  } finally {
    clearInterval(heartbeat)
  }
}
