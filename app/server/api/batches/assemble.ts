import type { BatchEndpoint } from '~/contracts/batches'
import {
  batchFileIds,
  batchIdOf,
  createFile,
  errorPartKey,
  fileObjectKey,
  recordBatchFiles,
} from '../../domain/batches'
import { bulkObjects, committedBatches, type BulkJobRow } from '../../domain/bulk-jobs'
import type { Db } from '../../db/types'
import type { ObjectStorage } from '../../providers/storage'

/** The ledger's product of each endpoint a batch runs: a batch line is charged as its endpoint's request. */
export const batchProducts: Record<BatchEndpoint, string> = {
  '/v1/embeddings': 'embeddings',
  '/v1/rerank': 'reranker',
  '/v1/classify': 'classifier',
}

/**
 * Joins the committed parts into the batch's output file (answered lines) and error file (refused lines), in
 * input order, and records them. Safe to run again (the same files are written again).
 */
export async function assembleBatch(db: Db, storage: ObjectStorage, job: BulkJobRow): Promise<BulkJobRow> {
  const parts = await committedBatches(db, job.id)
  const ids = batchFileIds(job.id)
  const answered = parts.filter((part) => part.rows > part.failedRows)
  const refused = parts.filter((part) => part.failedRows > 0)
  const write = async (fileId: string, keys: string[], suffix: string) => {
    async function* joined() {
      for (const part of keys) yield* await storage.read(part)
    }
    const bytes = await storage.write(fileObjectKey(fileId), joined(), 'application/jsonl')
    await createFile(db, {
      id: fileId,
      keyId: job.keyId,
      purpose: 'batch_output',
      fileName: `${batchIdOf(job.id)}_${suffix}.jsonl`,
      bytes,
      object: fileObjectKey(fileId),
    })
    return fileId
  }
  const outputFileId = answered.length
    ? await write(
        ids.output,
        answered.map((part) => bulkObjects.part(job.id, part.batchIndex)),
        'output',
      )
    : null
  const errorFileId = refused.length
    ? await write(
        ids.error,
        refused.map((part) => errorPartKey(job.id, part.batchIndex)),
        'error',
      )
    : null
  return recordBatchFiles(db, job.id, {
    outputFileId,
    errorFileId,
    rows: parts.reduce((sum, part) => sum + part.rows, 0),
  })
}
