import type { BulkJob, BulkUploadFields } from '~/contracts/bulk'
import { bulkObjects, createBulkJob } from '../../domain/bulk-jobs'
import { refuseKeyUse } from '../../domain/key-controls'
import { spendableBalance } from '../../domain/organisation-keys'
import { InsufficientBalance, InvalidInput } from '../../domain/refusals'
import { engines } from '../../providers/inference/select'
import { measureText } from '../../providers/inference/tokens'
import { objectStorage } from '../../providers/storage'
import { keyOf, type Caller } from '../caller'
import { checkModel } from '../search/models'
import { bulkJobAnswer } from './answer'
import { kickBulkWorker } from './worker'
import { bulkRows, formatOf, type BulkRow } from './rows'
import { cleanFileName } from './stored-files'

/** A file as the HTTP layer hands it over, streaming. */
export interface IncomingFile {
  fileName: string
  mediaType: string
  body: AsyncIterable<Uint8Array>
  /** Aborted when the upload fails while the file is still being read (the client went away). */
  signal?: AbortSignal
}

export interface StoredInput extends Counted {
  fileName: string
}

/**
 * Reads the request: the route streams the file into `store` and hands back the validated form fields.
 * `store` runs while the body is still arriving, so the file is never held whole.
 */
export type ReceiveUpload = (
  store: (file: IncomingFile) => Promise<StoredInput>,
) => Promise<{ fields: BulkUploadFields; stored: StoredInput | undefined }>

const fileIssue = (msg: string, type: string) => new InvalidInput([{ loc: ['body', 'file'], msg, type }])

/** What the upload stored: how many texts, and their metering tokens. */
interface Counted {
  rows: number
  tokens: number
}

/**
 * The normalised input: one JSON object per line (`t`: text, `i`: the caller's id, `n`: its metering
 * tokens), in ~64 KB writes. Texts are counted (and cut to the engine's input limit, as `truncate: true`
 * would) while they arrive, so the job knows its cost at once and its worker only computes.
 */
async function* inputLines(
  rows: AsyncIterable<BulkRow>,
  maxTokens: number,
  counted: Counted,
): AsyncGenerator<Uint8Array> {
  const encoder = new TextEncoder()
  let pending = ''
  for await (const row of rows) {
    const measured = await measureText(row.text, maxTokens)
    const { text, tokens } = measured.cut ?? { text: row.text, tokens: measured.tokens }
    counted.rows++
    counted.tokens += tokens
    pending += JSON.stringify(row.id === undefined ? { t: text, n: tokens } : { t: text, i: row.id, n: tokens }) + '\n'
    if (pending.length >= 64 * 1024) {
      yield encoder.encode(pending)
      pending = ''
    }
  }
  if (pending) yield encoder.encode(pending)
}

/**
 * POST /v1/bulk-embeddings: stores the uploaded texts and queues a job for them. The key must have a
 * balance to spend (402 otherwise, before the body is read); the job then charges batch by batch as it runs.
 */
export async function uploadBulkJob(caller: Caller, receive: ReceiveUpload): Promise<BulkJob> {
  const { db, key } = await keyOf(caller, 'embeddings')
  refuseKeyUse(key, { product: 'bulk-embeddings' })
  // An organisation's key spends its shared balance, not its own (which stays 0).
  if ((await spendableBalance(db, key)) <= 0) throw new InsufficientBalance()
  const id = crypto.randomUUID()
  const storage = objectStorage()
  const inputObject = bulkObjects.input(id)
  const { embeddings: engine } = await engines()
  let written = false
  try {
    const { fields, stored } = await receive(async (file) => {
      const rows = bulkRows(file.body, formatOf(file.fileName, file.mediaType), file.signal)
      const counted: Counted = { rows: 0, tokens: 0 }
      written = true
      await storage.write(inputObject, inputLines(rows, engine.maxInputTokens, counted), 'application/x-ndjson')
      return { fileName: cleanFileName(file.fileName, 'upload.txt'), ...counted }
    })
    if (!stored) throw fileIssue('is required: the texts to embed, as a .csv, .tsv or .txt file', 'missing')
    if (stored.rows === 0) throw fileIssue('holds no text to embed', 'empty')
    await checkModel('embeddings', fields.model, engine)
    refuseKeyUse(key, { product: 'bulk-embeddings', model: fields.model })
    const job = await createBulkJob(db, {
      id,
      keyId: key.id,
      model: fields.model,
      fileName: stored.fileName,
      userEmail: fields.email,
      totalRows: stored.rows,
      totalTokens: stored.tokens,
    })
    kickBulkWorker()
    return bulkJobAnswer(job)
  } catch (error) {
    if (written) await storage.remove([inputObject]).catch(() => undefined)
    throw error
  }
}
