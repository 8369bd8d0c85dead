import { sql } from 'drizzle-orm'
import { bigint, check, index, integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core'
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
    tokens: bigint('tokens', { mode: 'number' }).notNull(),
    worker: text('worker').notNull(),
    completedAt: timestamp('completed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.jobId, t.batchIndex] })],
)
