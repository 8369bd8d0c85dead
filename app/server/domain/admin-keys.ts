import { randomBytes } from 'node:crypto'
import { and, asc, eq, isNull, sql } from 'drizzle-orm'
import { ADMIN_KEY_PREFIX, type AdminKey } from '~/contracts/admin-keys'
import { adminKeys } from '../db/schema'
import type { Db, Tx } from '../db/types'
import { recordAudit, type AuditBy } from './audit'
import { hashKey } from './keys'
import { requireRole } from './organisations'
import { KeyIdNotFound, KeyRevoked, MissingKey, UnknownKey } from './refusals'

export type AdminKeyRow = typeof adminKeys.$inferSelect

const adminKeyPattern = new RegExp(`^${ADMIN_KEY_PREFIX}[A-Za-z0-9_-]{43}$`)
export const looksLikeAdminKey = (value: string) => adminKeyPattern.test(value)

const seconds = (t: Date | null) => (t ? Math.floor(t.getTime() / 1000) : null)

export const adminKeyAnswer = (row: AdminKeyRow): AdminKey => ({
  object: 'organization.admin_api_key',
  id: row.id,
  organisation_id: row.organisationId,
  name: row.name,
  redacted_value: `${ADMIN_KEY_PREFIX}…${row.last4}`,
  created_by: row.createdBy,
  created_at: seconds(row.createdAt)!,
  last_used_at: seconds(row.lastUsedAt),
  revoked_at: seconds(row.revokedAt),
})

/** A new admin key of the organisation, by one of its owners; the value is returned here only (its hash is kept). */
export async function createAdminKey(
  db: Db,
  by: AuditBy,
  uid: string,
  organisationId: string,
  name: string,
): Promise<{ value: string; row: AdminKeyRow }> {
  const value = ADMIN_KEY_PREFIX + randomBytes(32).toString('base64url')
  const row = await db.transaction(async (tx) => {
    await requireRole(tx, uid, organisationId, 'admin_keys.manage')
    const [made] = await tx
      .insert(adminKeys)
      .values({ organisationId, name, keyHash: hashKey(value), last4: value.slice(-4), createdBy: uid })
      .returning()
    await recordAudit(tx, by, {
      action: 'admin_key.created',
      accountId: uid,
      details: { organisation_id: organisationId, admin_key_id: made.id, name },
    })
    return made
  })
  return { value, row }
}

export async function adminKeysOf(db: Db, uid: string, organisationId: string): Promise<AdminKeyRow[]> {
  await requireRole(db, uid, organisationId, 'admin_keys.manage')
  return db
    .select()
    .from(adminKeys)
    .where(eq(adminKeys.organisationId, organisationId))
    .orderBy(asc(adminKeys.createdAt), asc(adminKeys.id))
}

/** Revokes an admin key of an organisation the caller owns; another's, or none, reads as not found. */
export async function revokeAdminKey(db: Db, by: AuditBy, uid: string, keyId: string): Promise<AdminKeyRow> {
  return db.transaction(async (tx) => {
    const [row] = await tx.select().from(adminKeys).where(eq(adminKeys.id, keyId))
    if (!row) throw new KeyIdNotFound()
    await requireRole(tx, uid, row.organisationId, 'admin_keys.manage').catch(() => {
      throw new KeyIdNotFound()
    })
    if (row.revokedAt) return row
    const [revoked] = await tx
      .update(adminKeys)
      .set({ revokedAt: sql`now()` })
      .where(and(eq(adminKeys.id, keyId), isNull(adminKeys.revokedAt)))
      .returning()
    await recordAudit(tx, by, {
      action: 'admin_key.revoked',
      accountId: uid,
      details: { organisation_id: row.organisationId, admin_key_id: keyId, name: row.name },
    })
    return revoked ?? row
  })
}

/**
 * The live admin key behind a presented value (refused as an unknown key when it is none, revoked when it
 * was), its use noted (to the minute, so a busy script does not write a row per call).
 */
export async function requireAdminKey(db: Db | Tx, value: string | undefined): Promise<AdminKeyRow> {
  if (!value) throw new MissingKey()
  if (!looksLikeAdminKey(value)) throw new UnknownKey()
  const [row] = await db
    .select()
    .from(adminKeys)
    .where(eq(adminKeys.keyHash, hashKey(value)))
  if (!row) throw new UnknownKey()
  if (row.revokedAt) throw new KeyRevoked()
  await db.execute(sql`update admin_keys set last_used_at = now()
    where id = ${row.id}::uuid and (last_used_at is null or last_used_at < now() - interval '1 minute')`)
  return row
}
