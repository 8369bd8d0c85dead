/** `/v1/organization/audit_logs`: what was done in the admin key's organisation, newest first. */
import type { AdminAuditEvent, List } from '~/contracts/admin-api'
import { keysOfOrganisation } from '../../domain/organisation-keys'
import { organisationAuditPage, type OrganisationAuditRow } from '../../domain/organisation-audit'
import { requireRole } from '../../domain/organisations'
import type { Caller } from '../caller'
import { adminOf } from './caller'
import { unixSeconds } from './list'

/** `user:<uid>` is a session, `key:…` and `admin_key:<id>` keys, anything else the system (payments, sweeps). */
function actorOf(actor: string): AdminAuditEvent['actor'] {
  const [kind, ...rest] = actor.split(':')
  const id = rest.join(':')
  if (kind === 'user') return { type: 'session', id }
  if (kind === 'key' || kind === 'admin_key') return { type: 'api_key', id: kind === 'admin_key' ? id : actor }
  return { type: 'system', id: actor }
}

const eventAnswer = (row: OrganisationAuditRow): AdminAuditEvent => ({
  object: 'organization.audit_log',
  id: row.id,
  type: row.action,
  effective_at: unixSeconds(row.created_at),
  actor: actorOf(row.actor),
  api_key_id: row.key_id,
  details: row.details,
})

export async function auditLogsFor(
  caller: Caller,
  query: { after?: string; limit?: number },
): Promise<List<AdminAuditEvent>> {
  const { db, user, organisation } = await adminOf(caller)
  await requireRole(db, user.uid, organisation.id, 'members.read')
  const keyIds = (await keysOfOrganisation(db, organisation)).map((k) => k.id)
  const after = query.after !== undefined && /^\d{1,18}$/.test(query.after) ? Number(query.after) : undefined
  const { rows, hasMore } = await organisationAuditPage(db, organisation.id, keyIds, query.limit ?? 20, after)
  const data = rows.map(eventAnswer)
  return { object: 'list', data, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null, has_more: hasMore }
}
