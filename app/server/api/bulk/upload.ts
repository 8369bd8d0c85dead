import type { BulkJob, BulkUploadFields } from '~/contracts/bulk'
import { bulkObjects, createBulkJob } from '../../domain/bulk-jobs'
import { InsufficientBalance, InvalidInput } from '../../domain/refusals'
import { engines } from '../../providers/inference/select'
import { objectStorage } from '../../providers/storage'
import { keyOf, type Caller } from '../caller'
import { checkModel } from '../search/models'
import { bulkJobAnswer } from './answer'
import { kickBulkWorker } from './worker'
import { bulkRows, formatOf, type BulkRow } from './rows'

/** A file as the HTTP layer hands it over, streaming. */
export interface IncomingFile {
  fileName: string
  mediaType: string
  body: AsyncIterable<Uint8Array>
}

export interface StoredInput {
  fileName: string
  rows: number
}

/**
 * Reads the request: the route streams the file into `store` and hands back the validated form fields.
 * `store` runs while the body is still arriving, so the file is never held whole.
 */
export type ReceiveUpload = (
  store: (file: IncomingFile) => Promise<StoredInput>,
) => Promise<{ fields: BulkUploadFields; stored: StoredInput | undefined }>

const fileIssue = (msg: string, type: string) => new InvalidInput([{ loc: ['body', 'file'], msg, type }])

/** The name the job shows: the base name the browser sent, without control characters, at most 255 long. */
function cleanFileName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? ''
  const clean = base
    .replace(/[\u0000-\u001f\u007f]/g, '')
    .trim()
    .slice(0, 255)
  return clean || 'upload.txt'
}

/** The normalised input: one JSON object per line (`t`: text, `i`: the caller's id), in ~64 KB writes. */
async function* inputLines(rows: AsyncIterable<BulkRow>, counted: () => void): AsyncGenerator<Uint8Array> {
  const encoder = new TextEncoder()
  let pending = ''
  for await (const row of rows) {
    counted()
    pending += JSON.stringify(row.id === undefined ? { t: row.text } : { t: row.text, i: row.id }) + '\n'
    if (pending.length >= 64 * 1024) {
      yield encoder.encode(pending)
      pending = ''
    }
  }
  if (pending) yield encoder.encode(pending)
}

/**
 * POST /v1/bulk-embeddings: stores the uploaded texts and queues a job for them. The key must have a
 * balance (402 otherwise, before the body is read); the job then charges batch by batch as it runs.
 */
export async function uploadBulkJob(caller: Caller, receive: ReceiveUpload): Promise<BulkJob> {
  const { db, key } = await keyOf(caller, 'embeddings')
  if (key.balance <= 0) throw new InsufficientBalance()
  const id = crypto.randomUUID()
  const storage = objectStorage()
  const inputObject = bulkObjects.input(id)
  let written = false
  try {
    const { fields, stored } = await receive(async (file) => {
      const rows = bulkRows(file.body, formatOf(file.fileName, file.mediaType))
      let count = 0
      written = true
      await storage.write(
        inputObject,
        inputLines(rows, () => count++),
        'application/x-ndjson',
      )
      return { fileName: cleanFileName(file.fileName), rows: count }
    })
    if (!stored) throw fileIssue('is required: the texts to embed, as a .csv, .tsv or .txt file', 'missing')
    if (stored.rows === 0) throw fileIssue('holds no text to embed', 'empty')
    const { embeddings: engine } = await engines()
    checkModel('embeddings', fields.model, engine)
    const job = await createBulkJob(db, {
      id,
      keyId: key.id,
      model: fields.model,
      fileName: stored.fileName,
      userEmail: fields.email,
      totalRows: stored.rows,
    })
    kickBulkWorker()
    return bulkJobAnswer(job)
  } catch (error) {
    if (written) await storage.remove([inputObject]).catch(() => undefined)
    throw error
  }
}
