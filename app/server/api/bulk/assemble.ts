import { bulkObjects, committedBatches, recordBulkResult, type BulkJobRow } from '../../domain/bulk-jobs'
import type { Db } from '../../db/types'
import type { ObjectStorage } from '../../providers/storage'

/**
 * Joins the parts of every committed batch into the job's result file, in input order, streaming part by
 * part. Safe to run twice (the same file is written again): the download call runs it for a job whose
 * worker stopped before it could (a cancelled one).
 */
export async function assembleResult(db: Db, storage: ObjectStorage, job: Pick<BulkJobRow, 'id'>): Promise<number> {
  const batches = await committedBatches(db, job.id)
  const rows = batches.reduce((sum, batch) => sum + batch.rows, 0)
  async function* parts() {
    for (const { batchIndex } of batches) yield* await storage.read(bulkObjects.part(job.id, batchIndex))
  }
  const object = bulkObjects.result(job.id)
  await storage.write(object, parts(), 'application/x-ndjson')
  await recordBulkResult(db, job.id, object, rows)
  return rows
}

/** Once a job is complete its parts are only a copy of its result. */
export async function removeParts(db: Db, storage: ObjectStorage, jobId: string): Promise<void> {
  const batches = await committedBatches(db, jobId)
  await storage.remove(batches.map(({ batchIndex }) => bulkObjects.part(jobId, batchIndex)))
}
