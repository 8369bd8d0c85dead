import { and, asc, eq, isNull, or, sql } from 'drizzle-orm'
import type { OrganisationKey } from '~/contracts/organisations'
import { apiKeys } from '../db/schema'
import type { Db, Tx } from '../db/types'
import { accountKey } from './account-keys'
import { recordAudit, type AuditBy } from './audit'
import type { ApiKey } from './keys'
import { keyAccess } from './key-access'
import { requireRole, type OrganisationRow } from './organisations'
import { projectIn } from './projects'
import { OrganisationRefused, SharedBalanceKey } from './refusals'

/** What a key can spend: its own balance, or its organisation's shared balance when it draws on one. */
export async function spendableBalance(db: Db | Tx, key: ApiKey): Promise<number> {
  if (!key.balanceKeyId) return key.balance
  const [row] = await db.select({ balance: apiKeys.balance }).from(apiKeys).where(eq(apiKeys.id, key.balanceKeyId))
  return row?.balance ?? 0
}

export function organisationKey(key: ApiKey, sharedBalance: number | null): OrganisationKey {
  return {
    ...accountKey(key),
    balance: key.balanceKeyId ? (sharedBalance ?? 0) : key.balance,
    project_id: key.projectId,
    shared_balance: key.balanceKeyId !== null,
  }
}

/**
 * The organisation's keys, oldest first, revoked ones included: for a personal organisation also its owner's
 * keys made before organisations (they have none set). For a caller whose role was checked.
 */
export async function keysOfOrganisation(db: Db | Tx, organisation: OrganisationRow): Promise<ApiKey[]> {
  const mine = organisation.personal
    ? or(
        eq(apiKeys.organisationId, organisation.id),
        and(isNull(apiKeys.organisationId), eq(apiKeys.ownerId, organisation.createdBy ?? '')),
      )
    : eq(apiKeys.organisationId, organisation.id)
  return db.select().from(apiKeys).where(mine).orderBy(asc(apiKeys.createdAt))
}

/** The organisation's keys as a member whose role may see keys reads them, with the balance each spends. */
export async function organisationKeys(db: Db, uid: string, organisationId: string): Promise<OrganisationKey[]> {
  const { organisation } = await requireRole(db, uid, organisationId, 'keys.read')
  const rows = await keysOfOrganisation(db, organisation)
  const shared = organisation.balanceKeyId
    ? await spendableBalance(db, { balanceKeyId: organisation.balanceKeyId } as ApiKey)
    : null
  return rows.map((key) => organisationKey(key, shared))
}

/** Puts a key of the organisation into one of its live projects, or into none. */
export async function setKeyProject(
  db: Db,
  by: AuditBy,
  uid: string,
  keyId: string,
  projectId: string | null,
): Promise<ApiKey> {
  return db.transaction(async (tx) => {
    const key = await keyAccess(tx, uid, keyId, 'keys.manage')
    if (projectId !== null) {
      if (!key.organisationId) throw new OrganisationRefused('This key is in no organisation with projects')
      const project = await projectIn(tx, key.organisationId, projectId)
      if (project.archivedAt) throw new OrganisationRefused('That project is archived')
    }
    const [row] = await tx.update(apiKeys).set({ projectId }).where(eq(apiKeys.id, keyId)).returning()
    await recordAudit(tx, by, { action: 'key.project_changed', keyId, details: { project_id: projectId } })
    return row
  })
}

/** Status follows the balance bought (spec §6): a shared balance made paid or premium makes its keys so. */
export async function shareBalanceStatus(tx: Db | Tx, balanceKeyId: string): Promise<void> {
  await tx.execute(sql`
    update api_keys k
       set email = coalesce(k.email, b.email), speed_level = greatest(k.speed_level, b.speed_level)
      from api_keys b
     where b.id = ${balanceKeyId}::uuid and k.balance_key_id = b.id
       and (k.email is distinct from coalesce(k.email, b.email) or k.speed_level < b.speed_level)`)
}

/**
 * Refuses a billing change made with a key that spends its organisation's shared balance: the organisation's
 * purchases, card, alerts and billing details are set by its owners, admins and billing members (session).
 */
export function refuseSharedBalance(key: Pick<ApiKey, 'balanceKeyId'>): void {
  if (key.balanceKeyId) throw new SharedBalanceKey()
}
