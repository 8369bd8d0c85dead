import type { BulkJob } from '~/contracts/bulk'
import type { BulkJobRow } from '../../domain/bulk-jobs'

/** A job as the API shows it (api-contracts.md's job object, plus its progress). */
export function bulkJobAnswer(row: BulkJobRow): BulkJob {
  return {
    id: row.id,
    _id: row.id,
    model_name: row.model,
    status: row.status,
    file_name: row.fileName,
    user_email: row.userEmail,
    created_at: row.createdAt.toISOString(),
    completed_at: row.completedAt?.toISOString() ?? null,
    error: row.error,
    used_token_count: row.usedTokenCount,
    total_token_count: row.totalTokens,
    total_rows: row.totalRows,
    processed_rows: row.processedRows,
    downloadable: row.processedRows > 0 && (row.status === 'completed' || row.status === 'failed'),
  }
}
