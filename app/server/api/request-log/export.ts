import { requestLogRow, type RequestLogFilters, type RequestLogRow } from '~/contracts/request-log'
import { csvLine } from '~/lib/csv-field'
import { requestLogPage, type RequestLogPosition } from '../../domain/request-log'
import { errorFields, log } from '../../log'
import type { Caller } from '../caller'
import { logScopeOf } from './scope'
import { flushRequestLog } from './writer'

/** Rows read per statement while exporting: few round trips, little held in memory. */
const EXPORT_PAGE = 1000

export const requestLogColumns = Object.keys(requestLogRow.entries) as Array<keyof RequestLogRow>

/**
 * The caller's whole log under the filters, newest first, as CSV (a header row, then one row per request) or
 * a JSON array, produced a page at a time as the client reads it: the export never holds more than a page.
 * The caller's access is checked before the answer starts, so a refusal is an ordinary `{detail}` answer.
 */
export async function requestLogExportFor(
  caller: Caller,
  filters: RequestLogFilters,
  format: 'csv' | 'json',
): Promise<ReadableStream<Uint8Array>> {
  const scope = await logScopeOf(caller, filters.key_id)
  await flushRequestLog()
  const encoder = new TextEncoder()
  let from: RequestLogPosition | undefined
  let first = true
  let done = false
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(format === 'csv' ? csvLine(requestLogColumns) : '['))
    },
    async pull(controller) {
      if (done) return
      try {
        const page = await requestLogPage(scope.db, scope.keyIds, filters, EXPORT_PAGE, from)
        let text = ''
        for (const row of page.rows) {
          if (format === 'csv') text += csvLine(requestLogColumns.map((column) => row[column]))
          else {
            text += `${first ? '\n' : ',\n'}${JSON.stringify(row)}`
            first = false
          }
        }
        if (!page.next) {
          done = true
          if (format === 'json') text += first ? ']\n' : '\n]\n'
        }
        if (text) controller.enqueue(encoder.encode(text))
        if (done) controller.close()
        else from = page.next!
      } catch (error) {
        log('error', 'request log export failed', { error: errorFields(error) })
        controller.error(error)
      }
    },
  })
}
