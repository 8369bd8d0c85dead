import { bulkLimits, type BulkJob } from '~/contracts/bulk'
import {
  bulkJobById,
  bulkJobOf,
  cancelBulkJob,
  listBulkJobs,
  retryBulkJob,
  type BulkJobRow,
} from '../../domain/bulk-jobs'
import { BulkJobNotFound, BulkJobState } from '../../domain/refusals'
import { getDb } from '../../db/client'
import { objectStorage, type ObjectStorage } from '../../providers/storage'
import type { Db } from '../../db/types'
import { keyOf, type Caller } from '../caller'
import { bulkJobAnswer } from './answer'
import { assembleResult } from './assemble'
import { checkResultLink, signedResultLink } from './download-link'
import { storedOrGone } from './stored-files'
import { kickBulkWorker } from './worker'

/** GET /v1/bulk-embeddings/{id}: the job as it stands (the dashboard polls it for progress). */
export async function bulkJobFor(caller: Caller, id: string): Promise<BulkJob> {
  const { db, key } = await keyOf(caller)
  return bulkJobAnswer(await bulkJobOf(db, key.id, id))
}

/** GET /v1/bulk-embeddings: the key's jobs, newest first. */
export async function bulkJobsFor(caller: Caller): Promise<{ data: BulkJob[] }> {
  const { db, key } = await keyOf(caller)
  return { data: (await listBulkJobs(db, key.id)).map(bulkJobAnswer) }
}

export async function cancelBulkJobFor(caller: Caller, id: string): Promise<BulkJob> {
  const { db, key } = await keyOf(caller)
  return bulkJobAnswer(await cancelBulkJob(db, key.id, id))
}

export async function retryBulkJobFor(caller: Caller, id: string): Promise<BulkJob> {
  const { db, key } = await keyOf(caller)
  const job = await retryBulkJob(db, key.id, id)
  kickBulkWorker()
  return bulkJobAnswer(job)
}

/** The job's result file, assembled now if its worker stopped before it could (a cancelled job). */
async function resultObjectOf(db: Db, storage: ObjectStorage, job: BulkJobRow): Promise<string> {
  if (job.status === 'waiting' || job.status === 'in-progress')
    throw new BulkJobState('The job is still running: its result can be downloaded once it has finished')
  if (job.processedRows === 0) throw new BulkJobState('The job has no embedded texts to download')
  if (job.resultObject) return job.resultObject
  await storedOrGone({ job: job.id }, assembleResult(db, storage, job))
  return (await bulkJobOf(db, job.keyId, job.id)).resultObject!
}

/**
 * POST /v1/bulk-embeddings/{id}/download-result: a URL that fetches the result for the next hour without
 * a key (presigned by S3, or signed by this server for local files).
 */
export async function bulkDownloadFor(
  caller: Caller,
  id: string,
): Promise<{ id: string; download_url: string; expires_at: string }> {
  const { db, key } = await keyOf(caller)
  const storage = objectStorage()
  const job = await bulkJobOf(db, key.id, id)
  const object = await resultObjectOf(db, storage, job)
  const expiresAt = new Date(Date.now() + bulkLimits.downloadUrlSeconds * 1000)
  const url =
    (await storage.presignedUrl(object, { expiresAt, fileName: resultFileName(job.fileName) })) ??
    (await signedResultLink(job.id, expiresAt))
  return { id: job.id, download_url: url, expires_at: expiresAt.toISOString() }
}

/** `texts.csv` → `texts.embeddings.jsonl`. */
export const resultFileName = (fileName: string) => `${fileName.replace(/\.[^.]*$/, '')}.embeddings.jsonl`

/** GET /v1/bulk-embeddings/{id}/result: the file behind a signed link (local storage; S3 links go to S3). */
export async function signedResultFor(
  id: string,
  link: { expires: number; signature: string },
): Promise<{ body: AsyncIterable<Uint8Array>; fileName: string }> {
  await checkResultLink(id, link.expires, link.signature)
  const db = await getDb()
  const job = await bulkJobById(db, id)
  if (!job.resultObject) throw new BulkJobNotFound()
  return {
    body: await storedOrGone({ job: job.id }, objectStorage().read(job.resultObject)),
    fileName: resultFileName(job.fileName),
  }
}
