/**
 * Wire contract of the bulk-embedding API (`/v1/bulk-embeddings`): the job object has the fields clients of
 * this API family read (api-contracts.md), plus the progress the dashboard draws (`total_rows`,
 * `processed_rows`). The original published no limits, so the ones here are this product's own.
 */
import * as v from 'valibot'
import { presentedKey } from './common'

export const bulkLimits = {
  /** Bytes of one uploaded file (413 beyond). */
  maxFileBytes: 100 * 1024 * 1024,
  /** Texts (rows or lines) of one file (422 beyond). */
  maxRows: 100_000,
  /** Characters of one text; a longer one is refused with the row it is on (422). */
  maxRowCharacters: 100_000,
  /** Texts embedded and charged together: a job is resumed and charged batch by batch. */
  batchSize: 256,
  /** How long a download URL works. */
  downloadUrlSeconds: 3600,
  /** Jobs one key lists (newest first). */
  listed: 50,
} as const

export const bulkJobStatuses = ['waiting', 'in-progress', 'failed', 'completed'] as const
export type BulkJobStatus = (typeof bulkJobStatuses)[number]

const email = v.pipe(v.string(), v.trim(), v.maxLength(254), v.email('must be an e-mail address'))

/** The form fields next to `file` (multipart/form-data). */
export const bulkUploadFields = v.object({
  model: v.pipe(v.string(), v.trim(), v.minLength(1, 'is required'), v.maxLength(200)),
  email: v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.transform((s) => (s === '' ? undefined : s)),
      v.optional(email),
    ),
  ),
})
export type BulkUploadFields = v.InferOutput<typeof bulkUploadFields>

/** How the upload is documented: the file is streamed by the route, never parsed as a whole. */
export const bulkUploadForm = v.object({
  file: v.pipe(
    v.string(),
    v.description(
      `The texts: a CSV file whose header row names a \`text\` column (and optionally an \`id\` column, copied to the result), or a plain-text file with one text per line (blank lines are skipped). At most ${bulkLimits.maxFileBytes / 1024 / 1024} MiB and ${bulkLimits.maxRows.toLocaleString('en-US')} texts.`,
    ),
  ),
  model: v.pipe(v.string(), v.description('An embedding model, as for /v1/embeddings')),
  email: v.optional(
    v.pipe(v.string(), v.description("Where to send the result notice; else the key's e-mail, if it has one")),
  ),
})

export const bulkJob = v.object({
  id: v.string(),
  _id: v.string(),
  model_name: v.string(),
  status: v.picklist(bulkJobStatuses),
  file_name: v.string(),
  user_email: v.nullable(v.string()),
  created_at: v.string(),
  completed_at: v.nullable(v.string()),
  error: v.nullable(v.string()),
  used_token_count: v.number(),
  /** What the whole job charges (metering tokens of every text, counted at upload). */
  total_token_count: v.number(),
  total_rows: v.number(),
  processed_rows: v.number(),
  /** Whether `download-result` has rows to give: a completed job, or a failed one that got some done. */
  downloadable: v.boolean(),
})
export type BulkJob = v.InferOutput<typeof bulkJob>

export const bulkJobList = v.object({ data: v.array(bulkJob) })

export const bulkDownload = v.object({ id: v.string(), download_url: v.string(), expires_at: v.string() })

const uuid = v.pipe(v.string(), v.uuid('must be a job id'))

/** The dashboard's calls name the key (in the body, never a URL) and, where it applies, the job. */
export const bulkJobInput = v.strictObject({ apiKey: presentedKey, id: uuid })

/** The signed download link's query. */
export const bulkDownloadQuery = v.object({
  expires: v.pipe(v.string(), v.regex(/^\d{1,12}$/, 'must be a time in seconds')),
  signature: v.pipe(v.string(), v.regex(/^[\w-]{43}$/, 'must be a signature')),
})

/** One line of the result file (JSON lines, in input order). */
export interface BulkResultLine {
  index: number
  id?: string
  embedding: number[]
}
