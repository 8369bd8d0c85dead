import type { KeyControls, KeyControlsInput } from '~/contracts/key-controls'
import { ownedKey } from '../../domain/account-keys'
import { keyControls, setKeyControls } from '../../domain/key-controls'
import type { Caller } from '../caller'
import { accountOf } from './session'

/** The controls of one of the signed-in account's keys (README "Per-key controls"). */
export async function keyControlsFor(caller: Caller, keyId: string): Promise<KeyControls> {
  const { db, user } = await accountOf(caller)
  return keyControls(await ownedKey(db, user.uid, keyId))
}

/** Replaces them; the change is in the account's audit log. */
export async function setKeyControlsFor(caller: Caller, keyId: string, input: KeyControlsInput): Promise<KeyControls> {
  const { db, user } = await accountOf(caller)
  return keyControls(await setKeyControls(db, user.uid, keyId, input))
}
