/**
 * Wire contract of OpenAI's Files and Batch APIs (`/v1/files`, `/v1/batches`), as the `openai` SDK and other
 * clients of OpenAI send and read them: a JSONL file of requests is uploaded with `purpose: "batch"`, a batch
 * runs its lines against one endpoint, and its output and error files are read back from the Files API.
 * Timestamps are Unix seconds, as OpenAI's are.
 */
import * as v from 'valibot'

export const batchLimits = {
  /** Bytes of one uploaded file (413 beyond). */
  maxFileBytes: 100 * 1024 * 1024,
  /** Requests (lines) of one batch, OpenAI's limit (422 beyond). */
  maxLines: 50_000,
  /** Characters of a line's `custom_id`. */
  maxCustomId: 512,
  /** Lines run, stored and charged together: a batch resumes and is charged part by part. */
  linesPerPart: 16,
  /** How long a batch may take before it expires with what it finished (OpenAI's only window). */
  completionWindowHours: 24,
  /** Batch lines cost this share of the same request's tokens (OpenAI's batch discount: half price). */
  priceShare: 0.5,
  /** Batches or files one page of a list holds by default, and at most. */
  listDefault: 20,
  listMax: 100,
  filesListMax: 10_000,
} as const

/** The endpoints a batch may run. */
export const batchEndpoints = ['/v1/embeddings', '/v1/rerank', '/v1/classify'] as const
export type BatchEndpoint = (typeof batchEndpoints)[number]

export const filePurposes = ['batch', 'batch_output'] as const

export const batchStatuses = [
  'validating',
  'failed',
  'in_progress',
  'finalizing',
  'completed',
  'expired',
  'cancelling',
  'cancelled',
] as const
export type BatchStatus = (typeof batchStatuses)[number]

/** The form fields next to `file` (multipart/form-data). */
export const fileUploadFields = v.object({
  purpose: v.pipe(
    v.string('is required'),
    v.picklist(['batch'], 'must be "batch": this server keeps files for the Batch API only'),
  ),
})

/** How the upload is documented: the file is streamed by the route, never parsed as a whole. */
export const fileUploadForm = v.object({
  file: v.pipe(
    v.string(),
    v.description(
      `The batch's requests: JSON lines of \`{"custom_id", "method": "POST", "url", "body"}\`, at most ${batchLimits.maxFileBytes / 1024 / 1024} MiB and ${batchLimits.maxLines.toLocaleString('en-US')} lines.`,
    ),
  ),
  purpose: v.pipe(v.literal('batch'), v.description('Always `batch`')),
})

export const fileObject = v.object({
  id: v.string(),
  object: v.literal('file'),
  bytes: v.number(),
  created_at: v.number(),
  expires_at: v.nullable(v.number()),
  filename: v.string(),
  purpose: v.picklist(filePurposes),
  status: v.literal('processed'),
  status_details: v.nullable(v.string()),
})
export type FileObject = v.InferOutput<typeof fileObject>

const listOf = <T extends v.GenericSchema>(item: T) =>
  v.object({
    object: v.literal('list'),
    data: v.array(item),
    first_id: v.nullable(v.string()),
    last_id: v.nullable(v.string()),
    has_more: v.boolean(),
  })

export const fileList = listOf(fileObject)
export type FileList = v.InferOutput<typeof fileList>

export const fileDeleted = v.object({ id: v.string(), object: v.literal('file'), deleted: v.literal(true) })

const limitOf = (max: number) =>
  v.optional(
    v.pipe(
      v.string(),
      v.transform(Number),
      v.number('must be a number'),
      v.integer('must be a whole number'),
      v.minValue(1),
      v.maxValue(max),
    ),
  )

export const fileListQuery = v.object({
  purpose: v.optional(v.picklist(filePurposes)),
  limit: limitOf(batchLimits.filesListMax),
  order: v.optional(v.picklist(['asc', 'desc'])),
  after: v.optional(v.pipe(v.string(), v.maxLength(100))),
})
export type FileListQuery = v.InferOutput<typeof fileListQuery>

export const batchListQuery = v.object({
  limit: limitOf(batchLimits.listMax),
  after: v.optional(v.pipe(v.string(), v.maxLength(100))),
})
export type BatchListQuery = v.InferOutput<typeof batchListQuery>

/** At most 16 pairs, keys of at most 64 characters and values of at most 512, as OpenAI's metadata. */
const metadata = v.pipe(
  v.record(v.pipe(v.string(), v.maxLength(64)), v.pipe(v.string(), v.maxLength(512))),
  v.check((pairs) => Object.keys(pairs).length <= 16, 'may hold at most 16 pairs'),
)

export const batchCreateBody = v.looseObject({
  input_file_id: v.pipe(v.string(), v.minLength(1, 'is required'), v.maxLength(100)),
  endpoint: v.picklist(batchEndpoints, `must be one of ${batchEndpoints.join(', ')}`),
  completion_window: v.literal('24h', 'must be "24h"'),
  metadata: v.optional(v.nullable(metadata)),
})
export type BatchCreateBody = v.InferOutput<typeof batchCreateBody>

const batchError = v.object({
  code: v.string(),
  message: v.string(),
  param: v.nullable(v.string()),
  line: v.nullable(v.number()),
})

export const batchObject = v.object({
  id: v.string(),
  object: v.literal('batch'),
  endpoint: v.string(),
  errors: v.nullable(v.object({ object: v.literal('list'), data: v.array(batchError) })),
  input_file_id: v.string(),
  completion_window: v.literal('24h'),
  status: v.picklist(batchStatuses),
  output_file_id: v.nullable(v.string()),
  error_file_id: v.nullable(v.string()),
  created_at: v.number(),
  in_progress_at: v.nullable(v.number()),
  expires_at: v.number(),
  finalizing_at: v.nullable(v.number()),
  completed_at: v.nullable(v.number()),
  failed_at: v.nullable(v.number()),
  expired_at: v.nullable(v.number()),
  cancelling_at: v.nullable(v.number()),
  cancelled_at: v.nullable(v.number()),
  request_counts: v.object({ total: v.number(), completed: v.number(), failed: v.number() }),
  metadata: v.nullable(v.record(v.string(), v.string())),
})
export type BatchObject = v.InferOutput<typeof batchObject>

export const batchList = listOf(batchObject)
export type BatchList = v.InferOutput<typeof batchList>
