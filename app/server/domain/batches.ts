import { and, asc, desc, eq, gt, lt, or, sql } from 'drizzle-orm'
import { batchLimits, type BatchEndpoint } from '~/contracts/batches'
import { bulkJobs, files } from '../db/schema'
import type { Db } from '../db/types'
import { bulkObjects, cancelledError, type BulkJobRow } from './bulk-jobs'
import { BatchObjectNotFound, BulkJobState } from './refusals'

/**
 * OpenAI's Files and Batch APIs on the bulk-job queue: a batch is a `bulk_jobs` row of kind `batch`, claimed,
 * leased, resumed and charged part by part as a bulk-embedding job is; its files are rows of `files`.
 */

export type FileRow = typeof files.$inferSelect

/** A batch's id as OpenAI shapes it (`batch_` and 32 hex digits), and the job's uuid behind it. */
export const batchIdOf = (jobId: string) => `batch_${jobId.replace(/-/g, '')}`
export function jobIdOf(batchId: string): string | undefined {
  const hex = /^batch_([0-9a-f]{32})$/.exec(batchId)?.[1]
  return hex && `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}

export const newFileId = () => `file-${crypto.randomUUID().replace(/-/g, '')}`
/** The output and error files of a batch: named after it, so assembling them again replaces them. */
export const batchFileIds = (jobId: string) => ({
  output: `file-${jobId.replace(/-/g, '')}-output`,
  error: `file-${jobId.replace(/-/g, '')}-errors`,
})

export const fileObjectKey = (id: string) => `files/${id}.jsonl`
/** Where a part's failed lines are stored, beside its answered lines (`bulkObjects.part`). */
export const errorPartKey = (jobId: string, part: number) =>
  `bulk/${jobId}/parts/${String(part).padStart(6, '0')}.errors.jsonl`

/** A batch that ran out of its completion window stops with this error and shows as `expired`. */
export const expiredError = 'The batch did not finish within its 24h completion window'

export async function createFile(db: Db, file: Omit<typeof files.$inferInsert, 'createdAt'>): Promise<FileRow> {
  const [row] = await db
    .insert(files)
    .values(file)
    .onConflictDoUpdate({ target: files.id, set: { bytes: file.bytes, object: file.object } })
    .returning()
  return row
}

/** A file of this key; another key's, a deleted one or none reads as not found. */
export async function fileOf(db: Db, keyId: string, id: string): Promise<FileRow> {
  const [row] = await db
    .select()
    .from(files)
    .where(and(eq(files.id, id), eq(files.keyId, keyId)))
  if (!row) throw new BatchObjectNotFound('file')
  return row
}

/** The key's files, newest first (or oldest with `asc`), after the file `after` names. */
export async function listFiles(
  db: Db,
  keyId: string,
  page: { purpose?: 'batch' | 'batch_output'; limit: number; order: 'asc' | 'desc'; after?: string },
): Promise<{ rows: FileRow[]; hasMore: boolean }> {
  const conditions = [eq(files.keyId, keyId)]
  if (page.purpose) conditions.push(eq(files.purpose, page.purpose))
  if (page.after) {
    const [cursor] = await db
      .select({ createdAt: files.createdAt, id: files.id })
      .from(files)
      .where(and(eq(files.id, page.after), eq(files.keyId, keyId)))
    if (cursor) {
      const beyond = page.order === 'asc' ? gt : lt
      conditions.push(
        or(
          beyond(files.createdAt, cursor.createdAt),
          and(eq(files.createdAt, cursor.createdAt), beyond(files.id, cursor.id)),
        )!,
      )
    }
  }
  const by = page.order === 'asc' ? asc : desc
  const rows = await db
    .select()
    .from(files)
    .where(and(...conditions))
    .orderBy(by(files.createdAt), by(files.id))
    .limit(page.limit + 1)
  return { rows: rows.slice(0, page.limit), hasMore: rows.length > page.limit }
}

/** Removes a file's row; the caller removes its bytes. */
export async function deleteFile(db: Db, keyId: string, id: string): Promise<FileRow> {
  const [row] = await db
    .delete(files)
    .where(and(eq(files.id, id), eq(files.keyId, keyId)))
    .returning()
  if (!row) throw new BatchObjectNotFound('file')
  return row
}

export interface NewBatch {
  id: string
  keyId: string
  endpoint: BatchEndpoint
  inputFile: FileRow
  metadata: Record<string, string> | null
  lines: number
}

export async function createBatchJob(db: Db, batch: NewBatch): Promise<BulkJobRow> {
  const [row] = await db
    .insert(bulkJobs)
    .values({
      id: batch.id,
      keyId: batch.keyId,
      kind: 'batch',
      endpoint: batch.endpoint,
      metadata: batch.metadata,
      inputFileId: batch.inputFile.id,
      // Each line names its own model; the job's column says what kind of work it is.
      model: batch.endpoint,
      fileName: batch.inputFile.fileName,
      userEmail: null,
      totalRows: batch.lines,
      totalTokens: 0,
      batchSize: batchLimits.linesPerPart,
      inputObject: bulkObjects.input(batch.id),
    })
    .returning()
  return row
}

/** A batch of this key; another key's, or none, reads as not found. */
export async function batchOf(db: Db, keyId: string, batchId: string): Promise<BulkJobRow> {
  const id = jobIdOf(batchId)
  if (!id) throw new BatchObjectNotFound('batch')
  const [row] = await db
    .select()
    .from(bulkJobs)
    .where(and(eq(bulkJobs.id, id), eq(bulkJobs.keyId, keyId), eq(bulkJobs.kind, 'batch')))
  if (!row) throw new BatchObjectNotFound('batch')
  return row
}

/** The key's batches, newest first, after the batch `after` names. */
export async function listBatches(
  db: Db,
  keyId: string,
  page: { limit: number; after?: string },
): Promise<{ rows: BulkJobRow[]; hasMore: boolean }> {
  const conditions = [eq(bulkJobs.keyId, keyId), eq(bulkJobs.kind, 'batch')]
  const afterId = page.after === undefined ? undefined : jobIdOf(page.after)
  if (afterId) {
    const [cursor] = await db
      .select({ createdAt: bulkJobs.createdAt, id: bulkJobs.id })
      .from(bulkJobs)
      .where(and(eq(bulkJobs.id, afterId), eq(bulkJobs.keyId, keyId)))
    if (cursor)
      conditions.push(
        or(
          lt(bulkJobs.createdAt, cursor.createdAt),
          and(eq(bulkJobs.createdAt, cursor.createdAt), lt(bulkJobs.id, cursor.id)),
        )!,
      )
  }
  const rows = await db
    .select()
    .from(bulkJobs)
    .where(and(...conditions))
    .orderBy(desc(bulkJobs.createdAt), desc(bulkJobs.id))
    .limit(page.limit + 1)
  return { rows: rows.slice(0, page.limit), hasMore: rows.length > page.limit }
}

/**
 * Stops a waiting or running batch as a bulk job is cancelled: no part can be committed after this (the lease
 * is gone), so its output can be assembled from what was committed at once.
 */
export async function cancelBatchJob(db: Db, keyId: string, batchId: string): Promise<BulkJobRow> {
  const batch = await batchOf(db, keyId, batchId)
  const [row] = await db
    .update(bulkJobs)
    .set({ status: 'failed', error: cancelledError, completedAt: sql`now()`, leaseOwner: null, leaseUntil: null })
    .where(and(eq(bulkJobs.id, batch.id), sql`${bulkJobs.status} in ('waiting', 'in-progress')`))
    .returning()
  if (!row)
    throw new BulkJobState(`The batch has already ${batch.error === cancelledError ? 'been cancelled' : 'ended'}`)
  return row
}

/** Records a batch's assembled files; `resultRows` marks it assembled. */
export async function recordBatchFiles(
  db: Db,
  jobId: string,
  assembled: { outputFileId: string | null; errorFileId: string | null; rows: number },
): Promise<BulkJobRow> {
  const [row] = await db
    .update(bulkJobs)
    .set({
      outputFileId: assembled.outputFileId,
      errorFileId: assembled.errorFileId,
      resultObject: assembled.outputFileId && fileObjectKey(assembled.outputFileId),
      resultRows: assembled.rows,
    })
    .where(eq(bulkJobs.id, jobId))
    .returning()
  return row
}
