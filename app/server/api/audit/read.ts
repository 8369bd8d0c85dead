import type * as v from 'valibot'
import type { AuditPage, AuditRow, auditQuery } from '~/contracts/audit-log'
import { csvLine } from '~/lib/csv-field'
import { auditPage, type AuditScope } from '../../domain/audit'
import type { Db } from '../../db/types'
import { errorFields, log } from '../../log'
import { optionalAccountOf } from '../account/session'
import { keyOf, type Caller } from '../caller'

/** The signed-in owner of the caller's key sees the account's events; anyone else holding the key, the key's. */
async function auditScopeOf(caller: Caller): Promise<{ db: Db; scope: AuditScope }> {
  const { db, key } = await keyOf(caller)
  if (key.ownerId) {
    const account = await optionalAccountOf(caller)
    if (account?.user.uid === key.ownerId) return { db, scope: { accountId: key.ownerId } }
  }
  return { db, scope: { keyId: key.id } }
}

export async function auditFor(caller: Caller, query: v.InferOutput<typeof auditQuery>): Promise<AuditPage> {
  const { db, scope } = await auditScopeOf(caller)
  const page = await auditPage(
    db,
    scope,
    Number(query.num_records),
    query.cursor === undefined ? undefined : Number(query.cursor),
  )
  return {
    events: page.rows,
    next_cursor: page.next === null ? null : String(page.next),
    scope: 'accountId' in scope ? 'account' : 'key',
  }
}

const EXPORT_PAGE = 1000
const columns = ['id', 'created_at', 'action', 'key_id', 'actor', 'client_address', 'request_id', 'details'] as const
const cell = (row: AuditRow, column: (typeof columns)[number]) =>
  column === 'details' ? JSON.stringify(row.details) : row[column]

/** Every event of the caller's scope, newest first, as CSV or a JSON array, a page at a time as it is read. */
export async function auditExportFor(caller: Caller, format: 'csv' | 'json'): Promise<ReadableStream<Uint8Array>> {
  const { db, scope } = await auditScopeOf(caller)
  const encoder = new TextEncoder()
  let before: number | undefined
  let first = true
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(format === 'csv' ? csvLine(columns) : '['))
    },
    async pull(controller) {
      try {
        const page = await auditPage(db, scope, EXPORT_PAGE, before)
        let text = ''
        for (const row of page.rows) {
          if (format === 'csv') text += csvLine(columns.map((column) => cell(row, column)))
          else {
            text += `${first ? '\n' : ',\n'}${JSON.stringify(row)}`
            first = false
          }
        }
        if (page.next === null) text += format === 'json' ? (first ? ']\n' : '\n]\n') : ''
        if (text) controller.enqueue(encoder.encode(text))
        if (page.next === null) controller.close()
        else before = page.next
      } catch (error) {
        log('error', 'audit export failed', { error: errorFields(error) })
        controller.error(error)
      }
    },
  })
}
