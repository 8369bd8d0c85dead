import { createHash, randomBytes } from 'node:crypto'
import { and, eq, isNull, sql } from 'drizzle-orm'
import { brand, constants } from '#config'
import type { KeyInfo } from '~/contracts/keys'
import { apiKeys } from '../db/schema'
import type { Db, Tx } from '../db/types'
import { KeyRevoked, MissingKey, UnknownKey } from './refusals'
import { applyEntry } from './ledger'
import { recordAudit, type AuditBy } from './audit'
import { emitKeyEvent } from './webhook-events'

export type ApiKey = typeof apiKeys.$inferSelect

/** 24 random bytes (192 bits) in base64url after the brand prefix: 32 characters a scanner can recognise. */
const keyPattern = new RegExp(`^${brand.keyPrefix}[A-Za-z0-9_-]{32}$`)

export function generateKey(): string {
  return brand.keyPrefix + randomBytes(24).toString('base64url')
}

export function hashKey(plaintext: string): string {
  return createHash('sha256').update(plaintext).digest('hex')
}

export function looksLikeKey(value: string): boolean {
  return keyPattern.test(value)
}

/** What a holder sees of a key: enough to recognise it, never enough to use it. */
export function displayKey(key: Pick<ApiKey, 'prefix' | 'last4'>): string {
  return `${key.prefix}…${key.last4}`
}

export type KeyKind = 'trial' | 'empty'

/** Creates a key; a trial key gets the free pack as a `trial` entry in the same transaction, exactly once. */
export async function issueKey(
  db: Db,
  by: AuditBy,
  kind: KeyKind,
  owner: {
    ownerId?: string
    email?: string
    name?: string
    /** An organisation's key: in it (and a project of it), spending `balanceKeyId`'s balance when that is set. */
    organisationId?: string
    projectId?: string | null
    balanceKeyId?: string | null
    /** Seals the plaintext for the owner's other devices (account keys); bound to the new row's id. */
    seal?: (keyId: string, plaintext: string) => Promise<string>
  } = {},
): Promise<{ apiKey: string; key: ApiKey }> {
  const apiKey = generateKey()
  const random = apiKey.slice(brand.keyPrefix.length)
  const key = await db.transaction(async (tx) => {
    const [row] = await tx
      .insert(apiKeys)
      .values({
        keyHash: hashKey(apiKey),
        prefix: brand.keyPrefix + random.slice(0, 4),
        last4: random.slice(-4),
        ownerId: owner.ownerId,
        email: owner.email,
        name: owner.name,
        organisationId: owner.organisationId,
        projectId: owner.projectId,
        balanceKeyId: owner.balanceKeyId,
        // A key on a shared balance has the status its balance bought (spec §6: paid, premium).
        ...(owner.balanceKeyId
          ? {
              email: sql`(select email from api_keys where id = ${owner.balanceKeyId}::uuid)`,
              speedLevel: sql`(select speed_level from api_keys where id = ${owner.balanceKeyId}::uuid)`,
            }
          : {}),
      })
      .returning()
    if (owner.seal) {
      const keyCiphertext = await owner.seal(row.id, apiKey)
      await tx.update(apiKeys).set({ keyCiphertext }).where(eq(apiKeys.id, row.id))
    }
    await recordAudit(tx, by, {
      action: 'key.created',
      keyId: row.id,
      accountId: owner.ownerId ?? null,
      details: { kind },
    })
    await emitKeyEvent(tx, 'key.created', { id: row.id, name: row.name, display: displayKey(row) })
    if (kind === 'empty') return row
    const credit = await applyEntry(tx, {
      keyId: row.id,
      amount: constants.freePackTokens,
      type: 'trial',
      externalRef: `trial:${row.id}`,
    })
    return { ...row, balance: credit.balance }
  })
  return { apiKey, key }
}

/** The lookup every key-holder call makes, built once per database handle instead of once per request. */
const byHash = new WeakMap<Db | Tx, { execute(values: { hash: string }): Promise<ApiKey[]> }>()

function lookupByHash(db: Db | Tx) {
  let query = byHash.get(db)
  if (!query) {
    query = db
      .select()
      .from(apiKeys)
      .where(eq(apiKeys.keyHash, sql.placeholder('hash')))
      .limit(1)
      .prepare('find_key_by_hash')
    byHash.set(db, query)
  }
  return query
}

export async function findKey(db: Db | Tx, plaintext: string): Promise<ApiKey | undefined> {
  if (!looksLikeKey(plaintext)) return undefined
  const [row] = await lookupByHash(db).execute({ hash: hashKey(plaintext) })
  return row
}

/** The key behind a presented plaintext, if it is known and not revoked. */
export async function requireActiveKey(db: Db | Tx, plaintext: string | undefined): Promise<ApiKey> {
  if (!plaintext) throw new MissingKey()
  const key = await findKey(db, plaintext)
  if (!key) throw new UnknownKey()
  if (key.revokedAt) throw new KeyRevoked()
  return key
}

/** A key by its id, if it is known and not revoked: for work a key started that runs later (a batch's lines). */
export async function requireActiveKeyById(db: Db | Tx, id: string): Promise<ApiKey> {
  const [key] = await db.select().from(apiKeys).where(eq(apiKeys.id, id)).limit(1)
  if (!key) throw new UnknownKey()
  if (key.revokedAt) throw new KeyRevoked()
  return key
}

export async function revokeKey(db: Db | Tx, by: AuditBy, keyId: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const rows = await tx
      .update(apiKeys)
      .set({ revokedAt: sql`now()` })
      .where(and(eq(apiKeys.id, keyId), isNull(apiKeys.revokedAt)))
      .returning({ id: apiKeys.id, name: apiKeys.name, prefix: apiKeys.prefix, last4: apiKeys.last4 })
    if (rows.length !== 1) return false
    await recordAudit(tx, by, { action: 'key.revoked', keyId })
    await emitKeyEvent(tx, 'key.revoked', { id: keyId, name: rows[0].name, display: displayKey(rows[0]) })
    return true
  })
}

/** Spec §3 key info, plus what the dashboard needs to show which key this is. */
export function keyInfo(key: ApiKey): KeyInfo {
  return {
    key_id: key.id,
    key_display: displayKey(key),
    email: key.email,
    wallet: { total_balance: key.balance },
    metadata: { speed_level: key.speedLevel, auto_recharge: key.autoRecharge },
    created_at: key.createdAt.toISOString(),
  }
}
