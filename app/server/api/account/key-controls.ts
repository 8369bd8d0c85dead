import type { KeyControls, KeyControlsInput } from '~/contracts/key-controls'
import { keyAccess } from '../../domain/key-access'
import { keyControls, setKeyControls } from '../../domain/key-controls'
import type { Caller } from '../caller'
import { accountOf } from './session'
import { auditBy } from '../audit/actor'

/** The controls of a key the signed-in account may see (README "Per-key controls"). */
export async function keyControlsFor(caller: Caller, keyId: string): Promise<KeyControls> {
  const { db, user } = await accountOf(caller)
  return keyControls(await keyAccess(db, user.uid, keyId, 'keys.read'))
}

/** Replaces them; the change is in the account's audit log. */
export async function setKeyControlsFor(caller: Caller, keyId: string, input: KeyControlsInput): Promise<KeyControls> {
  const { db, user } = await accountOf(caller)
  return keyControls(await setKeyControls(db, auditBy(caller), user.uid, keyId, input))
}
