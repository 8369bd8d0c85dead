import { eq } from 'drizzle-orm'
import { apiKeys } from '../db/schema'
import type { Db, Tx } from '../db/types'
import type { ApiKey } from './keys'
import { refuseUnless, type OrganisationAction } from './organisation-roles'
import { membershipOf } from './organisations'
import { KeyIdNotFound } from './refusals'

/**
 * One key the signed-in account may act on with `action`: a key of an organisation it is in (refused with 403
 * when its role there does not allow the action), or one of its own made before organisations (in its personal
 * organisation, where it is the owner). Anything else, another's key or none, reads as not found (404).
 */
export async function keyAccess(db: Db | Tx, uid: string, keyId: string, action: OrganisationAction): Promise<ApiKey> {
  const [key] = await db.select().from(apiKeys).where(eq(apiKeys.id, keyId))
  if (!key) throw new KeyIdNotFound()
  if (key.organisationId === null) {
    if (key.ownerId !== uid) throw new KeyIdNotFound()
    return key
  }
  const membership = await membershipOf(db, uid, key.organisationId)
  if (!membership) throw new KeyIdNotFound()
  refuseUnless(membership.role, action)
  return key
}
