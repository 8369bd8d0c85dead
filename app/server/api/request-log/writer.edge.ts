import { requestLog } from '../../db/schema'
import type { Db } from '../../db/types'
import { errorFields, log } from '../../log'
import type * as NodeWriter from './writer'

export type RequestLogRow = NodeWriter.RequestLogRow
export const FLUSH_MS = 0
export const FLUSH_ROWS = 1

/**
 * A Worker keeps no timers between requests and closes its connections with each answer, so a row is written
 * at once, on the request's own connection, before the answer (or a stream's last chunk) is let go.
 */
export const writeRequestLog: typeof NodeWriter.writeRequestLog = async (db: Db, row: RequestLogRow) => {
  try {
    await db.insert(requestLog).values(row)
  } catch (error) {
    log('error', 'request log write failed', { error: errorFields(error), rows: 1, dropped: 1 })
  }
}

export const flushRequestLog: typeof NodeWriter.flushRequestLog = async () => {}
