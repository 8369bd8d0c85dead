/** Administration API keys through a session (`/api/v1/account/admin_keys`): an organisation's owners make them. */
import * as v from 'valibot'
import { adminKeyIdParam, type AdminKey, type adminKeyInput } from '~/contracts/admin-keys'
import { adminKeyAnswer, adminKeysOf, createAdminKey, revokeAdminKey } from '../../domain/admin-keys'
import { ensurePersonalOrganisation } from '../../domain/organisations'
import { KeyIdNotFound } from '../../domain/refusals'
import { accountOf } from '../account/session'
import { auditBy } from '../audit/actor'
import type { Caller } from '../caller'

export function parseAdminKeyId(params: Record<string, string>): string {
  const parsed = v.safeParse(adminKeyIdParam, params.adminKeyId)
  if (!parsed.success) throw new KeyIdNotFound()
  return parsed.output
}

export async function createAdminKeyFor(
  caller: Caller,
  input: v.InferOutput<typeof adminKeyInput>,
): Promise<AdminKey & { value: string }> {
  const { db, user } = await accountOf(caller)
  const organisationId = input.organisation_id ?? (await ensurePersonalOrganisation(db, user.uid))
  const { value, row } = await createAdminKey(db, auditBy(caller), user.uid, organisationId, input.name)
  return { ...adminKeyAnswer(row), value }
}

export async function adminKeysFor(
  caller: Caller,
  query: { organisation_id?: string },
): Promise<{ object: 'list'; data: AdminKey[] }> {
  const { db, user } = await accountOf(caller)
  const organisationId = query.organisation_id ?? (await ensurePersonalOrganisation(db, user.uid))
  return { object: 'list', data: (await adminKeysOf(db, user.uid, organisationId)).map(adminKeyAnswer) }
}

export async function revokeAdminKeyFor(caller: Caller, keyId: string): Promise<AdminKey> {
  const { db, user } = await accountOf(caller)
  return adminKeyAnswer(await revokeAdminKey(db, auditBy(caller), user.uid, keyId))
}
