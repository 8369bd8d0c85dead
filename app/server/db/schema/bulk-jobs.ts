import { sql } from 'drizzle-orm'
import { bigint, check, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core'
import { bulkJobStatuses } from '../../../contracts/bulk'
import { apiKeys } from './keys'

/**
 * Bulk-embedding jobs: a queue on the database. A worker claims a job with `FOR UPDATE SKIP LOCKED` and
 * holds it by a lease (`lease_owner`, `lease_until`) that it renews with every batch it commits; a lease
 * that runs out (the worker died) lets any instance take the job over from `next_batch`.
 */
export const bulkJobs = pgTable(
  'bulk_jobs',
  {
    id: uuid('id').primaryKey(),
    keyId: uuid('key_id')
      .notNull()
      .references(() => apiKeys.id),
    /**
     * `embeddings`: a bulk-embedding job (/v1/bulk-embeddings). `batch`: an OpenAI-shaped batch (/v1/batches),
     * whose lines are requests to `endpoint`, run by the same queue, leases and per-batch commits.
     */
    kind: text('kind', { enum: ['embeddings', 'batch'] })
      .notNull()
      .default('embeddings'),
    /** A batch's endpoint (`/v1/embeddings`, `/v1/rerank`, `/v1/classify`). */
    endpoint: text('endpoint'),
    /** A batch's metadata, as its creator gave it (at most 16 string pairs). */
    metadata: jsonb('metadata').$type<Record<string, string>>(),
    /** A batch's files (`files.id`): its input, and its output and error files once assembled. */
    inputFileId: text('input_file_id'),
    outputFileId: text('output_file_id'),
    errorFileId: text('error_file_id'),
    /** A batch's lines that were answered with an error (they count in `processed_rows` too). */
    failedRows: integer('failed_rows').notNull().default(0),
    model: text('model').notNull(),
    fileName: text('file_name').notNull(),
    userEmail: text('user_email'),
    status: text('status', { enum: bulkJobStatuses }).notNull().default('waiting'),
    totalRows: integer('total_rows').notNull(),
    /** Metering tokens of every text, counted at upload: what the whole job will charge. */
    totalTokens: bigint('total_tokens', { mode: 'number' }).notNull(),
    batchSize: integer('batch_size').notNull(),
    /** The first batch not yet committed: where a worker (re)starts. */
    nextBatch: integer('next_batch').notNull().default(0),
    processedRows: integer('processed_rows').notNull().default(0),
    usedTokenCount: bigint('used_token_count', { mode: 'number' }).notNull().default(0),
    error: text('error'),
    /** Storage keys of the normalised input and of the assembled result (once assembled). */
    inputObject: text('input_object').notNull(),
    resultObject: text('result_object'),
    resultRows: integer('result_rows'),
    leaseOwner: text('lease_owner'),
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    /** How often a worker took the job: a job that keeps killing its workers is failed, not retried forever. */
    claims: integer('claims').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (t) => [
    index('bulk_jobs_key_idx').on(t.keyId, t.createdAt),
    index('bulk_jobs_queue_idx')
      .on(t.createdAt)
      .where(sql`status in ('waiting', 'in-progress')`),
    check('bulk_jobs_status', sql`${t.status} in ('waiting', 'in-progress', 'failed', 'completed')`),
    check('bulk_jobs_progress', sql`${t.processedRows} between 0 and ${t.totalRows}`),
    check('bulk_jobs_kind', sql`${t.kind} in ('embeddings', 'batch')`),
    check('bulk_jobs_failed_rows', sql`${t.failedRows} between 0 and ${t.processedRows}`),
  ],
)

/**
 * One row per committed batch: the primary key lets exactly one worker commit a batch, so two workers
 * racing on an expired lease can never both count (or both write the result of) the same rows.
 */
export const bulkJobBatches = pgTable(
  'bulk_job_batches',
  {
    jobId: uuid('job_id')
      .notNull()
      .references(() => bulkJobs.id, { onDelete: 'cascade' }),
    batchIndex: integer('batch_index').notNull(),
    rows: integer('rows').notNull(),
    /** Of `rows`, those a batch answered with an error: their lines are in the batch's error part. */
    failedRows: integer('failed_rows').notNull().default(0),
    tokens: bigint('tokens', { mode: 'number' }).notNull(),
    worker: text('worker').notNull(),
    completedAt: timestamp('completed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.jobId, t.batchIndex] })],
)

/**
 * Files of the OpenAI-shaped Files API (/v1/files): a batch's input as uploaded (`batch`), and the output and
 * error files a batch writes (`batch_output`). The bytes live in object storage under `object`.
 */
export const files = pgTable(
  'files',
  {
    id: text('id').primaryKey(),
    keyId: uuid('key_id')
      .notNull()
      .references(() => apiKeys.id),
    purpose: text('purpose', { enum: ['batch', 'batch_output'] }).notNull(),
    fileName: text('file_name').notNull(),
    bytes: bigint('bytes', { mode: 'number' }).notNull(),
    object: text('object').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('files_key_idx').on(t.keyId, t.createdAt),
    check('files_purpose', sql`${t.purpose} in ('batch', 'batch_output')`),
  ],
)
