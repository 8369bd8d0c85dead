import { getDb } from '../../db/client'
import type { Db } from '../../db/types'
import { requireAdminKey, type AdminKeyRow } from '../../domain/admin-keys'
import { can } from '../../domain/organisation-roles'
import { membershipOf, type OrganisationRow } from '../../domain/organisations'
import { NotPermitted } from '../../domain/refusals'
import { findUser, type User } from '../../domain/users'
import type { Caller } from '../caller'
import { limitKey } from '../rate-limit'
import { actingAdminKey } from '../audit/actor'

/** Who an Administration API call acts as: the owner who made its admin key, in the key's organisation. */
export interface AdminCall {
  db: Db
  key: AdminKeyRow
  user: User
  organisation: OrganisationRow
}

const resolved = new WeakMap<Caller, Promise<AdminCall>>()

/**
 * The caller of a `/v1/organization/…` route: only a live admin key (`Authorization: Bearer sk-admin-…`) is
 * one. An API key, a trial key or a session cookie is refused as no admin key (401), a revoked admin key as
 * revoked; a key whose maker is no longer an owner or admin of its organisation is refused (403). The domain
 * then judges each change by the maker's role, as it would for their session.
 */
export function adminOf(caller: Caller): Promise<AdminCall> {
  let call = resolved.get(caller)
  if (!call) resolved.set(caller, (call = resolveAdmin(caller)))
  return call
}

async function resolveAdmin(caller: Caller): Promise<AdminCall> {
  const db = await getDb()
  const key = await requireAdminKey(db, caller.presentedKey)
  actingAdminKey(caller, key.id)
  const membership = await membershipOf(db, key.createdBy, key.organisationId)
  if (!membership || !can(membership.role, 'admin_api.use'))
    throw new NotPermitted(membership?.role ?? 'a former member', 'admin_api.use')
  const user = await findUser(db, key.createdBy)
  if (!user) throw new NotPermitted('a former member', 'admin_api.use')
  // Counted as a paid key against the dashboard's per-minute limit, in a bucket of its own.
  caller.rate = await limitKey('dashboard', { id: `admin:${key.id}`, email: 'admin-key', speedLevel: 1 })
  return { db, key, user, organisation: membership.organisation }
}
