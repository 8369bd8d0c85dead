import { and, desc, eq, gte, inArray, lt, or, sql, type SQL } from 'drizzle-orm'
import type { RequestLogFilters, RequestLogRow } from '~/contracts/request-log'
import { apiKeys, requestLog } from '../db/schema'
import type { Db } from '../db/types'
import { displayKey } from './keys'

/** Where a page of the log stopped: the time and id of its last row (rows come newest first). */
export interface RequestLogPosition {
  at: number
  id: number
}

export const encodeRequestLogCursor = (position: RequestLogPosition) => `${position.at}.${position.id}`

export function decodeRequestLogCursor(cursor: string): RequestLogPosition {
  const [at, id] = cursor.split('.').map(Number)
  return { at, id }
}

/** The rows of `keyIds` that match the filters (the caller has already checked it may see those keys). */
function matching(keyIds: string[], filters: RequestLogFilters): SQL {
  const conditions: Array<SQL | undefined> = [
    keyIds.length === 1 ? eq(requestLog.keyId, keyIds[0]) : inArray(requestLog.keyId, keyIds),
    filters.product === undefined ? undefined : eq(requestLog.product, filters.product),
    filters.model === undefined ? undefined : eq(requestLog.model, filters.model),
    filters.request_id === undefined ? undefined : eq(requestLog.requestId, filters.request_id),
    filters.tag === undefined ? undefined : eq(requestLog.tag, filters.tag),
    filters.since === undefined ? undefined : gte(requestLog.createdAt, new Date(filters.since)),
    filters.until === undefined ? undefined : lt(requestLog.createdAt, new Date(filters.until)),
  ]
  if (filters.status !== undefined) {
    const klass = /^([2-5])xx$/.exec(filters.status)
    conditions.push(
      klass
        ? and(gte(requestLog.status, Number(klass[1]) * 100), lt(requestLog.status, Number(klass[1]) * 100 + 100))
        : eq(requestLog.status, Number(filters.status)),
    )
  }
  return and(...conditions)!
}

/** After `position` in the newest-first order: older, or as old with a smaller id. */
const after = (position: RequestLogPosition) =>
  or(
    lt(requestLog.createdAt, new Date(position.at)),
    and(eq(requestLog.createdAt, new Date(position.at)), lt(requestLog.id, position.id)),
  )!

/**
 * One page of the log, newest first, and where the next starts (null on the last page). Keyset paging on
 * (created_at, id), which the `request_log_key_time_idx` index serves, so a deep page costs what the first does.
 */
export async function requestLogPage(
  db: Db,
  keyIds: string[],
  filters: RequestLogFilters,
  limit: number,
  from?: RequestLogPosition,
): Promise<{ rows: RequestLogRow[]; next: RequestLogPosition | null }> {
  if (keyIds.length === 0) return { rows: [], next: null }
  const where = from ? and(matching(keyIds, filters), after(from)) : matching(keyIds, filters)
  const found = await db
    .select({ log: requestLog, name: apiKeys.name, prefix: apiKeys.prefix, last4: apiKeys.last4 })
    .from(requestLog)
    .leftJoin(apiKeys, eq(apiKeys.id, requestLog.keyId))
    .where(where)
    .orderBy(desc(requestLog.createdAt), desc(requestLog.id))
    .limit(limit + 1)
  const page = found.slice(0, limit)
  const last = page.at(-1)
  return {
    rows: page.map(({ log, name, prefix, last4 }) => ({
      id: String(log.id),
      created_at: log.createdAt.toISOString(),
      key_id: log.keyId,
      key_label: name ?? (prefix && last4 ? displayKey({ prefix, last4 }) : log.keyId),
      request_id: log.requestId,
      product: log.product,
      model: log.model,
      tag: log.tag,
      engine: log.engine,
      input_tokens: log.inputTokens,
      output_tokens: log.outputTokens,
      latency_ms: log.latencyMs,
      status: log.status,
    })),
    next: found.length > limit && last ? { at: log(last).createdAt.getTime(), id: log(last).id } : null,
  }
}

const log = (row: { log: typeof requestLog.$inferSelect }) => row.log

/** Removes rows older than `days`, a batch at a time so no statement holds the table long; answers how many. */
export async function pruneRequestLog(db: Db, days: number, batch = 10_000): Promise<number> {
  let removed = 0
  for (;;) {
    const result = await db.execute(sql`
      delete from request_log where id in (
        select id from request_log where created_at < now() - make_interval(days => ${days}) limit ${batch}
      ) returning 1 as gone`)
    const count = Array.isArray(result) ? result.length : ((result as { rows?: unknown[] }).rows?.length ?? 0)
    removed += count
    if (count < batch) return removed
  }
}
