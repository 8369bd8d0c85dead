import { and, desc, eq, lt, sql, type SQL } from 'drizzle-orm'
import type { AuditAction, AuditRow } from '~/contracts/audit-log'
import { auditLog } from '../db/schema'
import type { Db, Tx } from '../db/types'

export interface AuditEntry {
  action: AuditAction
  keyId?: string | null
  /** The account; by default the key's owner (an anonymous key's changes belong to the key alone). */
  accountId?: string | null
  details?: Record<string, string | number | boolean | null>
}

/**
 * Who makes a change, from where, in which request: what the caller established (api/audit/actor.ts), or
 * the actor background work and payment events name themselves, with no address or request of a caller.
 */
export interface AuditBy {
  /** `user:<uid>`, `key:<prefix…last4>`, `admin_key:<id>`, `visitor`, `payments` or `system`. */
  actor: string
  address: string | null
  requestId: string | null
}

/** Work no caller asked for (a sweep, a timer): the actor a change outside any request always had. */
export const bySystem: AuditBy = { actor: 'system', address: null, requestId: null }

/**
 * Records a change in the audit log, made `by` whom. Call it with the transaction that makes the change, so
 * both commit or neither does.
 */
export async function recordAudit(db: Db | Tx, by: AuditBy, entry: AuditEntry): Promise<void> {
  const keyId = entry.keyId ?? null
  const owner =
    entry.accountId !== undefined
      ? sql`${entry.accountId}`
      : keyId
        ? sql`(select owner_id from api_keys where id = ${keyId}::uuid)`
        : sql`null`
  await db.execute(sql`
    insert into audit_log (account_id, key_id, action, actor, client_address, request_id, details)
    values (${owner}, ${keyId}::uuid, ${entry.action}, ${by.actor}, ${by.address}, ${by.requestId},
      ${JSON.stringify(entry.details ?? {})}::jsonb)`)
}

/** Whose events a reader may see: an account's (its owner signed in), or one key's. */
export type AuditScope = { accountId: string } | { keyId: string }

const whose = (scope: AuditScope): SQL =>
  'accountId' in scope ? eq(auditLog.accountId, scope.accountId) : eq(auditLog.keyId, scope.keyId)

/** Newest first, `limit` at a time, after the event `before` (an id from the previous page). */
export async function auditPage(
  db: Db,
  scope: AuditScope,
  limit: number,
  before?: number,
): Promise<{ rows: AuditRow[]; next: number | null }> {
  const where = before === undefined ? whose(scope) : and(whose(scope), lt(auditLog.id, before))
  const found = await db
    .select()
    .from(auditLog)
    .where(where)
    .orderBy(desc(auditLog.id))
    .limit(limit + 1)
  const page = found.slice(0, limit)
  return {
    rows: page.map((row) => ({
      id: String(row.id),
      created_at: row.createdAt.toISOString(),
      action: row.action as AuditAction,
      key_id: row.keyId,
      actor: row.actor,
      client_address: row.clientAddress,
      request_id: row.requestId,
      details: row.details,
    })),
    next: found.length > limit ? page[page.length - 1].id : null,
  }
}
