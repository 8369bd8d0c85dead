import { and, asc, eq, isNull, sql } from 'drizzle-orm'
import type { AccountKey } from '~/contracts/account'
import { apiKeys } from '../db/schema'
import type { Db, Tx } from '../db/types'
import { displayKey, requireActiveKey, revokeKey, type ApiKey } from './keys'
import { keyAccess } from './key-access'
import { ensurePersonalOrganisation } from './organisations'
import { KeyOwnedElsewhere, KeyIdNotFound } from './refusals'
import { recordAudit, type AuditBy } from './audit'

/** An account's keys, oldest first, revoked ones included (their balance is history the owner may look up). */
export async function accountKeys(db: Db, uid: string): Promise<AccountKey[]> {
  const rows = await db.select().from(apiKeys).where(eq(apiKeys.ownerId, uid)).orderBy(asc(apiKeys.createdAt))
  return rows.map(accountKey)
}

export function accountKey(key: ApiKey): AccountKey {
  return {
    key_id: key.id,
    name: key.name,
    key_display: displayKey(key),
    balance: key.balance,
    created_at: key.createdAt.toISOString(),
    revoked: key.revokedAt !== null,
    // A key claimed before sealing existed (or sealed under another secret) cannot be shown again.
    can_reveal: key.keyCiphertext !== null,
  }
}

/** Has the account ever held a key? Its first key comes with the free pack, later ones empty. */
export async function hasAnyKey(db: Db, uid: string): Promise<boolean> {
  const [row] = await db.select({ id: apiKeys.id }).from(apiKeys).where(eq(apiKeys.ownerId, uid)).limit(1)
  return !!row
}

/**
 * Moves an anonymous key into the account, with the name its browser gave it unless it has one. A key already in this account is claimed again harmlessly;
 * another account's is refused. The `owner_id is null` condition makes two racing claims end with one owner.
 */
export async function claimKey(
  db: Db,
  by: AuditBy,
  uid: string,
  plaintext: string,
  seal: (keyId: string, plaintext: string) => Promise<string>,
  name?: string | null,
): Promise<ApiKey> {
  const key = await requireActiveKey(db, plaintext)
  if (key.ownerId === uid) return key
  // An organisation's key is the organisation's, whoever holds it.
  if (key.ownerId || key.organisationId) throw new KeyOwnedElsewhere()
  const keyCiphertext = await seal(key.id, plaintext)
  const organisationId = await ensurePersonalOrganisation(db, uid)
  const claimed = await db.transaction(async (tx) => {
    const [row] = await tx
      .update(apiKeys)
      .set({
        ownerId: uid,
        organisationId,
        keyCiphertext,
        ...(name ? { name: sql`coalesce(${apiKeys.name}, ${name})` } : {}),
      })
      .where(and(eq(apiKeys.id, key.id), isNull(apiKeys.ownerId), isNull(apiKeys.organisationId)))
      .returning()
    if (!row) throw new KeyOwnedElsewhere()
    await shareAccountStatus(tx, uid)
    await recordAudit(tx, by, { action: 'key.claimed', keyId: key.id, accountId: uid })
    return row
  })
  return claimed
}

/** Names a key the account may manage (its own, or its organisation's by its role there). */
export async function renameKey(db: Db, by: AuditBy, uid: string, keyId: string, name: string | null): Promise<ApiKey> {
  return db.transaction(async (tx) => {
    await keyAccess(tx, uid, keyId, 'keys.manage')
    const [row] = await tx.update(apiKeys).set({ name }).where(eq(apiKeys.id, keyId)).returning()
    if (!row) throw new KeyIdNotFound()
    await recordAudit(tx, by, { action: 'key.named', keyId, accountId: uid, details: { name } })
    return row
  })
}

export async function revokeAccountKey(db: Db, by: AuditBy, uid: string, keyId: string): Promise<void> {
  await keyAccess(db, uid, keyId, 'keys.manage')
  await revokeKey(db, by, keyId)
}

/**
 * Spec §6 status follows the account: once one of its keys is paid (has an e-mail) or premium, every key
 * of the account is. Called where a key joins an account or becomes paid, so the key lookup stays one row.
 */
export async function shareAccountStatus(tx: Db | Tx, uid: string): Promise<void> {
  await tx.execute(sql`
    update api_keys k
       set email = coalesce(k.email, s.email), speed_level = greatest(k.speed_level, s.speed_level)
      from (select max(email) as email, max(speed_level) as speed_level from api_keys where owner_id = ${uid}) s
     where k.owner_id = ${uid}
       and (k.email is distinct from coalesce(k.email, s.email) or k.speed_level < s.speed_level)`)
}
