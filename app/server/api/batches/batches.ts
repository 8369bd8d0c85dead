import {
  batchLimits,
  type BatchCreateBody,
  type BatchEndpoint,
  type BatchList,
  type BatchListQuery,
  type BatchObject,
  type BatchStatus,
} from '~/contracts/batches'
import {
  batchIdOf,
  batchOf,
  cancelBatchJob,
  createBatchJob,
  expiredError,
  fileOf,
  listBatches,
} from '../../domain/batches'
import { bulkObjects, cancelledError, type BulkJobRow } from '../../domain/bulk-jobs'
import type { Db } from '../../db/types'
import { refuseKeyUse } from '../../domain/key-controls'
import { InsufficientBalance, InvalidInput } from '../../domain/refusals'
import { errorFields, log } from '../../log'
import { objectStorage } from '../../providers/storage'
import { keyOf, type Caller } from '../caller'
import { kickBulkWorker } from '../bulk/worker'
import { assembleBatch, batchProducts } from './assemble'

const seconds = (date: Date | null) => (date ? Math.floor(date.getTime() / 1000) : null)

/** A batch's OpenAI status, from its job's. */
export function batchStatus(row: BulkJobRow): BatchStatus {
  if (row.status === 'waiting') return 'validating'
  if (row.status === 'in-progress') return row.processedRows === row.totalRows ? 'finalizing' : 'in_progress'
  if (row.status === 'completed') return row.resultRows === null ? 'finalizing' : 'completed'
  if (row.error === cancelledError) return row.resultRows === null ? 'cancelling' : 'cancelled'
  if (row.error === expiredError) return 'expired'
  return 'failed'
}

/** A batch as OpenAI's Batch API shows it. */
export function batchAnswer(row: BulkJobRow): BatchObject {
  const status = batchStatus(row)
  const ended = seconds(row.completedAt)
  return {
    id: batchIdOf(row.id),
    object: 'batch',
    endpoint: row.endpoint ?? '',
    errors:
      status === 'failed'
        ? { object: 'list', data: [{ code: 'batch_failed', message: row.error ?? 'failed', param: null, line: null }] }
        : null,
    input_file_id: row.inputFileId ?? '',
    completion_window: '24h',
    status,
    output_file_id: row.outputFileId,
    error_file_id: row.errorFileId,
    created_at: seconds(row.createdAt)!,
    in_progress_at: seconds(row.startedAt),
    expires_at: seconds(row.createdAt)! + batchLimits.completionWindowHours * 3600,
    finalizing_at: status === 'completed' ? ended : null,
    completed_at: status === 'completed' ? ended : null,
    failed_at: status === 'failed' ? ended : null,
    expired_at: status === 'expired' ? ended : null,
    cancelling_at: status === 'cancelling' || status === 'cancelled' ? ended : null,
    cancelled_at: status === 'cancelled' ? ended : null,
    request_counts: { total: row.totalRows, completed: row.processedRows - row.failedRows, failed: row.failedRows },
    metadata: row.metadata ?? null,
  }
}

const lineIssue = (line: number, msg: string) =>
  new InvalidInput([{ loc: ['body', 'input_file_id', line], msg: `line ${line}: ${msg}`, type: 'invalid_batch_line' }])

/**
 * The input file's requests checked and normalised for the job's worker (`{t: body JSON, i: custom_id, n: 0}`
 * per line, the bulk input's shape): each line `{custom_id, method: "POST", url: <endpoint>, body}`, custom
 * ids unique, at most `maxLines` lines.
 */
async function* normalisedLines(
  input: AsyncIterable<Uint8Array>,
  endpoint: BatchEndpoint,
  counted: { lines: number },
): AsyncGenerator<Uint8Array> {
  const decoder = new TextDecoder('utf-8', { fatal: true })
  const encoder = new TextEncoder()
  const ids = new Set<string>()
  let rest = ''
  let at = 0
  const take = (text: string): string => {
    at++
    if (!text.trim()) return ''
    let line: unknown
    try {
      line = JSON.parse(text)
    } catch {
      throw lineIssue(at, 'is not JSON')
    }
    if (typeof line !== 'object' || line === null || Array.isArray(line)) throw lineIssue(at, 'is not a JSON object')
    const { custom_id: id, method, url, body } = line as Record<string, unknown>
    if (typeof id !== 'string' || !id || id.length > batchLimits.maxCustomId)
      throw lineIssue(at, `custom_id must be a string of 1 to ${batchLimits.maxCustomId} characters`)
    if (ids.has(id)) throw lineIssue(at, `custom_id ${JSON.stringify(id)} is used by an earlier line`)
    ids.add(id)
    if (method !== 'POST') throw lineIssue(at, 'method must be "POST"')
    if (url !== endpoint) throw lineIssue(at, `url must be the batch's endpoint, ${endpoint}`)
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw lineIssue(at, 'body must be an object')
    counted.lines++
    if (counted.lines > batchLimits.maxLines)
      throw lineIssue(at, `the file holds more than ${batchLimits.maxLines.toLocaleString('en-US')} requests`)
    return JSON.stringify({ t: JSON.stringify(body), i: id, n: 0 }) + '\n'
  }
  try {
    for await (const chunk of input) {
      const lines = (rest + decoder.decode(chunk, { stream: true })).split('\n')
      rest = lines.pop() ?? ''
      yield encoder.encode(lines.map(take).join(''))
    }
    const last = take(rest + decoder.decode())
    if (last) yield encoder.encode(last)
  } catch (error) {
    if (error instanceof TypeError) throw lineIssue(at + 1, 'is not UTF-8 text')
    throw error
  }
}

/**
 * POST /v1/batches: checks the input file's requests and queues them as a job of the bulk queue. The key
 * must have a balance (402 otherwise); the batch is then charged part by part as it runs, at the batch price.
 */
export async function createBatch(caller: Caller, body: BatchCreateBody): Promise<BatchObject> {
  const { db, key } = await keyOf(caller, 'embeddings')
  refuseKeyUse(key, { product: batchProducts[body.endpoint] })
  if (key.balance <= 0) throw new InsufficientBalance()
  const file = await fileOf(db, key.id, body.input_file_id)
  if (file.purpose !== 'batch')
    throw new InvalidInput([
      { loc: ['body', 'input_file_id'], msg: 'must name a file uploaded with purpose "batch"', type: 'invalid' },
    ])
  const storage = objectStorage()
  const id = crypto.randomUUID()
  const counted = { lines: 0 }
  try {
    await storage.write(
      bulkObjects.input(id),
      normalisedLines(await storage.read(file.object), body.endpoint, counted),
      'application/x-ndjson',
    )
    if (counted.lines === 0)
      throw new InvalidInput([{ loc: ['body', 'input_file_id'], msg: 'holds no requests', type: 'empty' }])
    const row = await createBatchJob(db, {
      id,
      keyId: key.id,
      endpoint: body.endpoint,
      inputFile: file,
      metadata: body.metadata ?? null,
      lines: counted.lines,
    })
    kickBulkWorker()
    return batchAnswer(row)
  } catch (error) {
    await storage.remove([bulkObjects.input(id)]).catch(() => undefined)
    throw error
  }
}

/** An ended batch whose files are not assembled yet (cancelled, or its storage was full at the end): now. */
async function withFiles(db: Db, row: BulkJobRow): Promise<BulkJobRow> {
  if (row.resultRows !== null || row.status === 'waiting' || row.status === 'in-progress') return row
  try {
    return await assembleBatch(db, objectStorage(), row)
  } catch (error) {
    log('error', 'batch files not assembled', { job_id: row.id, error: errorFields(error) })
    return row
  }
}

/** GET /v1/batches/{id}. */
export async function batchFor(caller: Caller, id: string): Promise<BatchObject> {
  const { db, key } = await keyOf(caller)
  return batchAnswer(await withFiles(db, await batchOf(db, key.id, id)))
}

/** GET /v1/batches: the key's batches, newest first, a page at a time (`after` the last id of the page before). */
export async function batchesFor(caller: Caller, query: BatchListQuery): Promise<BatchList> {
  const { db, key } = await keyOf(caller)
  const { rows, hasMore } = await listBatches(db, key.id, {
    limit: query.limit ?? batchLimits.listDefault,
    after: query.after,
  })
  const data = rows.map(batchAnswer)
  return { object: 'list', data, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null, has_more: hasMore }
}

/**
 * POST /v1/batches/{id}/cancel: the batch stops (`cancelling`); no part can be recorded after it, so its
 * files are assembled from what was done at once and it reads `cancelled`.
 */
export async function cancelBatchFor(caller: Caller, id: string): Promise<BatchObject> {
  const { db, key } = await keyOf(caller)
  return batchAnswer(await withFiles(db, await cancelBatchJob(db, key.id, id)))
}
