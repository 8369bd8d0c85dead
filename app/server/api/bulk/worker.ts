import { hostname } from 'node:os'
import { serverEnv } from '~/server/env'
import { getDb } from '../../db/client'
import { claimBulkJob } from '../../domain/bulk-jobs'
import { onShutdown } from '../../lifecycle'
import { errorFields, log } from '../../log'
import { engines } from '../../providers/inference/select'
import { objectStorage } from '../../providers/storage'
import { runBatchJob } from '../batches/run-batch'
import { runBulkJob, type WorkerContext } from './run-job'

/** A worker that dies holds its job this long before another may take it over (BULK_LEASE_SECONDS's default). */
export const LEASE_SECONDS = 60
const POLL_MS = 2000

/** Claims and works jobs until the queue has none for this worker (or the server stops). */
export async function workBulkQueue(ctx: WorkerContext): Promise<number> {
  let worked = 0
  while (!ctx.stopping()) {
    const job = await claimBulkJob(ctx.db, ctx.worker, ctx.leaseSeconds)
    if (!job) break
    // A batch (/v1/batches) shares the queue, its leases and its per-part commits; its lines are requests.
    await (job.kind === 'batch' ? runBatchJob : runBulkJob)(ctx, job)
    worked++
  }
  return worked
}

const workerName = `${hostname()}:${process.pid}:${crypto.randomUUID().slice(0, 8)}`
let timer: ReturnType<typeof setInterval> | undefined
let running: Promise<unknown> | undefined
let again = false
let stopping = false

/** Works the queue now (after an upload or a retry); a call while a pass runs folds into one more pass. */
export function kickBulkWorker(): void {
  if (!timer || stopping) return
  if (running) {
    again = true
    return
  }
  running = (async () => {
    try {
      const ctx: WorkerContext = {
        db: await getDb(),
        storage: objectStorage(),
        engine: (await engines()).embeddings,
        worker: workerName,
        leaseSeconds: serverEnv().BULK_LEASE_SECONDS,
        stopping: () => stopping,
      }
      do {
        again = false
        await workBulkQueue(ctx)
      } while (again && !stopping)
    } catch (error) {
      log('error', 'bulk job worker pass failed', { error: errorFields(error) })
    } finally {
      running = undefined
    }
  })()
}

/**
 * Starts this process's worker (unless JOB_WORKER=off): it polls for jobs every 2 s, so jobs queued by
 * other instances, and jobs whose worker died, are taken up without a kick.
 */
export function startBulkWorker(): void {
  if (timer || stopping || serverEnv().JOB_WORKER === 'off') return
  timer = setInterval(kickBulkWorker, POLL_MS)
  timer.unref?.()
  onShutdown(stopBulkWorker)
  kickBulkWorker()
}

/** A stopping server hands its job back after the batch under way, so another instance continues it at once. */
export async function stopBulkWorker(): Promise<void> {
  stopping = true
  if (timer) clearInterval(timer)
  timer = undefined
  await running
}
