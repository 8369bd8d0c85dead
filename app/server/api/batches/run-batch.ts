import { batchLimits, type BatchEndpoint } from '~/contracts/batches'
import { errorPartKey, expiredError } from '../../domain/batches'
import {
  bulkObjects,
  commitBulkBatch,
  endBulkJob,
  releaseBulkJob,
  renewBulkLease,
  type BulkJobRow,
} from '../../domain/bulk-jobs'
import { refuseKeyUse } from '../../domain/key-controls'
import { requireActiveKeyById } from '../../domain/keys'
import { errorFields, log } from '../../log'
import { afterLedger } from '../after-ledger'
import type { BatchLineCharges, Caller } from '../caller'
import { inputBatches, type InputBatch } from '../bulk/input-batches'
import { chargeStop, MAX_CLAIMS, storageStop, type WorkerContext } from '../bulk/run-job'
import { assembleBatch } from './assemble'
import { answerLine } from './lines'

type Ran = { kind: 'saved' } | { kind: 'lost' } | { kind: 'failed'; error: string }

const encoder = new TextEncoder()

/** What a part of `tokens` tokens of one product and model costs in a batch: half, rounded up, never below 0. */
export const batchPrice = (tokens: number) => Math.max(0, Math.ceil(tokens * batchLimits.priceShare))

/**
 * Runs one part's lines, each as its endpoint answers it, stores the answered and refused lines, then charges
 * the part at the batch price and records it in one transaction (commitBulkBatch), as a bulk job's batch is.
 */
async function runPart(ctx: WorkerContext, job: BulkJobRow, part: InputBatch): Promise<Ran> {
  try {
    refuseKeyUse(await requireActiveKeyById(ctx.db, job.keyId))
  } catch (error) {
    const stopped = chargeStop(error)
    if (stopped) return { kind: 'failed', error: stopped }
    throw error
  }
  const endpoint = job.endpoint as BatchEndpoint
  const charges: BatchLineCharges = { keyId: job.keyId, tokens: 0, uses: new Map() }
  const caller: Caller = {
    requestId: `batch:${job.id}:${part.index}`,
    address: '',
    network: '',
    presentedKey: undefined,
    sessionToken: undefined,
    batch: charges,
  }
  let answered = ''
  let refused = ''
  let failed = 0
  for (let at = 0; at < part.texts.length; at++) {
    const requestId = `req_${crypto.randomUUID().replace(/-/g, '')}`
    const answer = await answerLine(endpoint, JSON.parse(part.texts[at]), caller)
    const line = JSON.stringify({
      id: `batch_req_${crypto.randomUUID().replace(/-/g, '')}`,
      custom_id: part.ids[at],
      response: { status_code: answer.status, request_id: requestId, body: answer.body },
      error: null,
    })
    if (answer.status === 200) answered += line + '\n'
    else {
      refused += line + '\n'
      failed++
    }
  }
  try {
    if (answered)
      await ctx.storage.write(bulkObjects.part(job.id, part.index), [encoder.encode(answered)], 'application/jsonl')
    if (refused)
      await ctx.storage.write(errorPartKey(job.id, part.index), [encoder.encode(refused)], 'application/jsonl')
  } catch (error) {
    log('error', 'batch part not stored', { job_id: job.id, part: part.index, error: errorFields(error) })
    return { kind: 'failed', error: storageStop(error) }
  }
  const debits = [...charges.uses.values()].map((use) => ({
    keyId: job.keyId,
    tokens: batchPrice(use.tokens),
    product: use.product,
    model: use.model,
    usageEventId: `batch:${job.id}:${part.index}:${use.product}:${use.model}`,
  }))
  try {
    const committed = await commitBulkBatch(ctx.db, {
      jobId: job.id,
      batchIndex: part.index,
      rows: part.texts.length,
      failedRows: failed,
      tokens: debits.reduce((sum, debit) => sum + debit.tokens, 0),
      worker: ctx.worker,
      leaseSeconds: ctx.leaseSeconds,
      charges: debits,
    })
    if (committed.outcome === 'lost') return { kind: 'lost' }
    for (const charged of committed.charged) afterLedger(charged)
    return { kind: 'saved' }
  } catch (error) {
    const stopped = chargeStop(error)
    if (stopped) return { kind: 'failed', error: stopped }
    throw error
  }
}

/** Ends the batch with its output and error files assembled from what was recorded. */
async function finishBatch(
  ctx: WorkerContext,
  job: BulkJobRow,
  end: { status: 'completed' | 'failed'; error?: string },
): Promise<void> {
  if (!(await renewBulkLease(ctx.db, job.id, ctx.worker, ctx.leaseSeconds))) return
  // A storage that cannot take the files now leaves them to be assembled when the batch is next read.
  await assembleBatch(ctx.db, ctx.storage, job).catch((error: unknown) =>
    log('error', 'batch files not assembled', { job_id: job.id, error: errorFields(error) }),
  )
  if (!(await endBulkJob(ctx.db, { jobId: job.id, worker: ctx.worker, ...end }))) return
  log('info', 'batch ended', { job_id: job.id, status: end.status, error: end.error })
}

const expired = (job: BulkJobRow) =>
  Date.now() > job.createdAt.getTime() + batchLimits.completionWindowHours * 3600 * 1000

/** Works a claimed batch from its first unrecorded part to its end, or until it is lost or the server stops. */
export async function runBatchJob(ctx: WorkerContext, job: BulkJobRow): Promise<void> {
  if (job.claims > MAX_CLAIMS)
    return finishBatch(ctx, job, { status: 'failed', error: `The batch stopped its worker ${MAX_CLAIMS} times` })
  const heartbeat = setInterval(
    () => void renewBulkLease(ctx.db, job.id, ctx.worker, ctx.leaseSeconds).catch(() => undefined),
    ctx.heartbeatMs ?? (ctx.leaseSeconds * 1000) / 3,
  )
  try {
    const input = await ctx.storage.read(job.inputObject)
    for await (const part of inputBatches(input, job.batchSize, job.nextBatch)) {
      if (ctx.stopping()) return await releaseBulkJob(ctx.db, job.id, ctx.worker)
      if (expired(job)) return await finishBatch(ctx, job, { status: 'failed', error: expiredError })
      const ran = await runPart(ctx, job, part)
      if (ran.kind === 'lost') return
      if (ran.kind === 'failed') return await finishBatch(ctx, job, { status: 'failed', error: ran.error })
    }
    await finishBatch(ctx, job, { status: 'completed' })
  } finally {
    clearInterval(heartbeat)
  }
}
