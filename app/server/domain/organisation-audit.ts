import { sql } from 'drizzle-orm'
import { rowsOf } from '../db/rows'
import type { Db } from '../db/types'

export interface OrganisationAuditRow {
  id: string
  action: string
  actor: string
  key_id: string | null
  created_at: string | Date
  details: Record<string, unknown>
}

/**
 * An organisation's audit events, newest first: those naming it (members, invitations, projects, admin keys)
 * and those of its keys, `limit` at a time after the event `after` (an id of the previous page).
 */
export async function organisationAuditPage(
  db: Db,
  organisationId: string,
  keyIds: string[],
  limit: number,
  after?: number,
): Promise<{ rows: OrganisationAuditRow[]; hasMore: boolean }> {
  const keys = keyIds.length
    ? sql`or key_id in (${sql.join(
        keyIds.map((id) => sql`${id}::uuid`),
        sql`, `,
      )})`
    : sql``
  const rows = rowsOf<OrganisationAuditRow>(
    await db.execute(sql`
      select id::text, action, actor, key_id, created_at, details from audit_log
      where (details->>'organisation_id' = ${organisationId} ${keys})
        ${after === undefined ? sql`` : sql`and id < ${after}`}
      order by id desc limit ${limit + 1}`),
  )
  return { rows: rows.slice(0, limit), hasMore: rows.length > limit }
}
