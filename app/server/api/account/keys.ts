import * as v from 'valibot'
import { keyIdParam, type AccountKey, type claimKeyInput, type createKeyInput } from '~/contracts/account'
import {
  accountKey,
  accountKeys,
  claimKey,
  hasAnyKey,
  renameKey,
  revokeAccountKey,
  shareAccountStatus,
} from '../../domain/account-keys'
import { issueKey } from '../../domain/keys'
import { keyAccess } from '../../domain/key-access'
import { ensurePersonalOrganisation } from '../../domain/organisations'
import { KeyIdNotFound, KeyNotRevealable } from '../../domain/refusals'
import { serverEnv } from '../../env'
import { openKey, sealKey } from '../../providers/identity/key-crypto'
import type { Caller } from '../caller'
import { passCaptcha } from '../caller'
import { limitVerifiedAttempts } from '../rate-limit'
import { accountOf } from './session'
import { recordAudit } from '../../domain/audit'
import { auditBy } from '../audit/actor'

/** Seals an account or organisation key for its holders' other devices. */
export const sealer = () => {
  const env = serverEnv()
  return (keyId: string, plaintext: string) => sealKey(env, keyId, plaintext)
}

/** A path id that is not a uuid names no key: 404, as another account's key does. */
export function parseKeyId(params: Record<string, string>): string {
  const parsed = v.safeParse(keyIdParam, params.keyId)
  if (!parsed.success) throw new KeyIdNotFound()
  return parsed.output
}

export async function listKeysFor(caller: Caller): Promise<{ keys: AccountKey[] }> {
  const { db, user } = await accountOf(caller)
  return { keys: await accountKeys(db, user.uid) }
}

/**
 * A new key in the account. The account's first key carries the free pack, as an anonymous trial key would,
 * under the same captcha and per-address limit; later ones start empty (balance can be moved to them).
 */
export async function createKeyFor(
  caller: Caller,
  input: v.InferOutput<typeof createKeyInput>,
): Promise<{ api_key: string; key: AccountKey }> {
  const { db, user } = await accountOf(caller)
  const kind = (await hasAnyKey(db, user.uid)) ? 'empty' : 'trial'
  const env = serverEnv()
  await limitVerifiedAttempts(
    `${kind}:addr:${caller.network}`,
    kind === 'trial' ? env.RATE_LIMIT_TRIAL : env.RATE_LIMIT_EMPTY,
    () => passCaptcha(caller, input.captcha, 'new_key'),
  )
  const { apiKey, key } = await issueKey(db, auditBy(caller), kind, {
    ownerId: user.uid,
    organisationId: await ensurePersonalOrganisation(db, user.uid),
    name: input.name ?? undefined,
    seal: sealer(),
  })
  await shareAccountStatus(db, user.uid)
  return { api_key: apiKey, key: accountKey(await keyAccess(db, user.uid, key.id, 'keys.read')) }
}

/** Spec: a trial key got before sign-in joins the account (with a captcha, like every key-changing call). */
export async function claimKeyFor(caller: Caller, input: v.InferOutput<typeof claimKeyInput>): Promise<AccountKey> {
  const { db, user } = await accountOf(caller)
  await passCaptcha(caller, input.captcha, 'claim_key')
  const key = await claimKey(db, auditBy(caller), user.uid, input.api_key, sealer(), input.name)
  return accountKey(await keyAccess(db, user.uid, key.id, 'keys.read'))
}

export async function renameKeyFor(caller: Caller, keyId: string, name: string | null): Promise<AccountKey> {
  const { db, user } = await accountOf(caller)
  return accountKey(await renameKey(db, auditBy(caller), user.uid, keyId, name))
}

/** The key itself, for using it on this device: its owner's session, or a member's whose role manages keys. */
export async function revealKeyFor(caller: Caller, keyId: string): Promise<{ api_key: string }> {
  const { db, user } = await accountOf(caller)
  const key = await keyAccess(db, user.uid, keyId, 'keys.manage')
  if (!key.keyCiphertext) throw new KeyNotRevealable()
  try {
    const apiKey = await openKey(serverEnv(), key.id, key.keyCiphertext)
    await recordAudit(db, auditBy(caller), { action: 'key.revealed', keyId: key.id, accountId: user.uid })
    return { api_key: apiKey }
  } catch (error) {
    throw new KeyNotRevealable('sealed key does not open', { cause: error })
  }
}

export async function revokeKeyFor(caller: Caller, keyId: string): Promise<{ detail: string }> {
  const { db, user } = await accountOf(caller)
  await revokeAccountKey(db, auditBy(caller), user.uid, keyId)
  return { detail: 'API key revoked' }
}
