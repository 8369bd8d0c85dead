import { accountKeys } from '../../domain/account-keys'
import { displayKey } from '../../domain/keys'
import { InvalidInput } from '../../domain/refusals'
import type { Db } from '../../db/types'
import { optionalAccountOf } from '../account/session'
import { keyOf, type Caller } from '../caller'

export interface LogScope {
  db: Db
  /** The keys asked for: one key, or every key the caller may see. */
  keyIds: string[]
  /** Every key the caller may see, as the filter offers them. */
  keys: Array<{ key_id: string; label: string }>
}

/**
 * Whose requests a caller may read: its key's, and when that key belongs to an account whose owner is signed
 * in on this call, every key of the account (revoked ones too: their requests are history). `key_id` narrows
 * it to one of those; any other key is refused as unknown, whether it exists or not.
 */
export async function logScopeOf(caller: Caller, keyId: string | undefined): Promise<LogScope> {
  const { db, key } = await keyOf(caller)
  let keys = [{ key_id: key.id, label: key.name ?? displayKey(key) }]
  if (key.ownerId) {
    const account = await optionalAccountOf(caller)
    if (account?.user.uid === key.ownerId)
      keys = (await accountKeys(db, key.ownerId)).map((k) => ({ key_id: k.key_id, label: k.name ?? k.key_display }))
  }
  if (keyId !== undefined && !keys.some((k) => k.key_id === keyId))
    throw new InvalidInput([{ loc: ['query', 'key_id'], msg: 'is not a key you can see', type: 'unknown_key' }])
  return { db, keys, keyIds: keyId === undefined ? keys.map((k) => k.key_id) : [keyId] }
}
