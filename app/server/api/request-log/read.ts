import type { RequestLogPage, RequestLogQuery } from '~/contracts/request-log'
import { decodeRequestLogCursor, encodeRequestLogCursor, requestLogPage } from '../../domain/request-log'
import { serverEnv } from '../../env'
import type { Caller } from '../caller'
import { logScopeOf } from './scope'
import { flushRequestLog } from './writer'

/** A page of the caller's request log, newest first, with the keys it may filter by. */
export async function requestLogFor(caller: Caller, query: RequestLogQuery): Promise<RequestLogPage> {
  const { num_records, cursor, ...filters } = query
  const scope = await logScopeOf(caller, filters.key_id)
  // The caller's latest requests may still wait in this instance's buffer: a look at the log shows them.
  await flushRequestLog()
  const page = await requestLogPage(
    scope.db,
    scope.keyIds,
    filters,
    Number(num_records),
    cursor === undefined ? undefined : decodeRequestLogCursor(cursor),
  )
  return {
    requests: page.rows,
    next_cursor: page.next && encodeRequestLogCursor(page.next),
    keys: scope.keys,
    retention_days: serverEnv().REQUEST_LOG_RETENTION_DAYS,
  }
}
