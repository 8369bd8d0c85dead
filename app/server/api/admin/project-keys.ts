/** `/v1/organization/projects/{id}/api_keys`: a project's keys, made with their spend limits and value once. */
import type { AdminKeyLimit, AdminLimitsInput, AdminProjectKey, List, ListQuery } from '~/contracts/admin-api'
import type { SpendLimit } from '~/contracts/spend-limits'
import type { Db } from '../../db/types'
import type { AuditBy } from '../../domain/audit'
import { displayKey, issueKey, revokeKey, type ApiKey } from '../../domain/keys'
import { keyAccess } from '../../domain/key-access'
import { keysOfOrganisation } from '../../domain/organisation-keys'
import { requireRole } from '../../domain/organisations'
import { projectIn } from '../../domain/projects'
import { KeyIdNotFound, OrganisationRefused } from '../../domain/refusals'
import { addKeySpendLimit, keySpendLimits, removeKeySpendLimit } from '../../domain/spend-limits'
import { sealer } from '../account/keys'
import { auditBy } from '../audit/actor'
import type { Caller } from '../caller'
import { adminOf } from './caller'
import { listPage, unixSeconds } from './list'

const limitAnswer = (l: SpendLimit): AdminKeyLimit => ({
  id: l.id,
  period: l.period,
  tokens: l.unit === 'tokens' ? l.amount : null,
  amount_usd: l.unit === 'usd' ? l.amount : null,
  used_tokens: l.used_tokens,
  resets_at: unixSeconds(l.resets_at),
})

async function keyAnswer(db: Db, key: ApiKey): Promise<AdminProjectKey> {
  return {
    object: 'organization.project.api_key',
    id: key.id,
    name: key.name,
    redacted_value: displayKey(key),
    created_at: unixSeconds(key.createdAt),
    last_used_at: null,
    owner_project_access: key.revokedAt ? 'inactive' : 'active',
    project_id: key.projectId!,
    limits: (await keySpendLimits(db, key.id)).map(limitAnswer),
  }
}

export async function projectKeysFor(
  caller: Caller,
  projectId: string,
  query: ListQuery,
): Promise<List<AdminProjectKey>> {
  const { db, user, organisation } = await adminOf(caller)
  await requireRole(db, user.uid, organisation.id, 'keys.read')
  await projectIn(db, organisation.id, projectId)
  const keys = (await keysOfOrganisation(db, organisation)).filter((k) => k.projectId === projectId)
  const page = listPage(keys, query)
  return { ...page, data: await Promise.all(page.data.map((key) => keyAnswer(db, key))) }
}

/** One key of the project (revoked ones too); another project's or organisation's reads as none. */
async function projectKey(caller: Caller, projectId: string, keyId: string) {
  const { db, user, organisation } = await adminOf(caller)
  const key = await keyAccess(db, user.uid, keyId, 'keys.read')
  if (key.organisationId !== organisation.id || key.projectId !== projectId) throw new KeyIdNotFound()
  return { db, uid: user.uid, key }
}

export async function projectKeyFor(caller: Caller, projectId: string, keyId: string): Promise<AdminProjectKey> {
  const { db, key } = await projectKey(caller, projectId, keyId)
  return keyAnswer(db, key)
}

/** The limits asked for, added one by one under the key's lock (each audited as a session's would be). */
async function addLimits(db: Db, by: AuditBy, uid: string, keyId: string, limits: AdminLimitsInput) {
  const common = { period: limits.period, alert_percent: null, alert_email: null }
  if (limits.tokens !== undefined)
    await addKeySpendLimit(db, by, uid, keyId, { ...common, unit: 'tokens', amount: limits.tokens })
  if (limits.amount_usd !== undefined)
    await addKeySpendLimit(db, by, uid, keyId, { ...common, unit: 'usd', amount: limits.amount_usd })
}

/** A new key in a live project, spending the organisation's shared balance, its value answered here only. */
export async function createProjectKeyFor(
  caller: Caller,
  projectId: string,
  input: { name: string; limits?: AdminLimitsInput },
): Promise<AdminProjectKey & { value: string }> {
  const { db, user, organisation } = await adminOf(caller)
  await requireRole(db, user.uid, organisation.id, 'keys.manage')
  if ((await projectIn(db, organisation.id, projectId)).archivedAt)
    throw new OrganisationRefused('That project is archived: bring it back first')
  const by = auditBy(caller)
  const { apiKey, key } = await issueKey(db, by, 'empty', {
    ownerId: organisation.personal ? user.uid : undefined,
    organisationId: organisation.id,
    projectId,
    balanceKeyId: organisation.balanceKeyId,
    name: input.name,
    seal: sealer(),
  })
  if (input.limits) await addLimits(db, by, user.uid, key.id, input.limits)
  return { ...(await keyAnswer(db, key)), value: apiKey }
}

/**
 * Replaces the key's limits: the new ones are added before the old ones go, so at no moment does the key
 * run without a limit it was given. `null` removes them all.
 */
export async function updateProjectKeyFor(
  caller: Caller,
  projectId: string,
  keyId: string,
  { limits }: { limits: AdminLimitsInput | null },
): Promise<AdminProjectKey> {
  const { db, uid, key } = await projectKey(caller, projectId, keyId)
  const by = auditBy(caller)
  const old = await keySpendLimits(db, key.id)
  if (limits) await addLimits(db, by, uid, key.id, limits)
  for (const limit of old) await removeKeySpendLimit(db, by, uid, key.id, limit.id)
  return keyAnswer(db, key)
}

export async function deleteProjectKeyFor(caller: Caller, projectId: string, keyId: string) {
  const { db, uid, key } = await projectKey(caller, projectId, keyId)
  await keyAccess(db, uid, key.id, 'keys.manage')
  await revokeKey(db, auditBy(caller), key.id)
  return { object: 'organization.project.api_key.deleted' as const, id: key.id, deleted: true }
}
