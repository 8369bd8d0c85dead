import * as v from 'valibot'
import { persistedStore } from '~/lib/persisted-store'

/**
 * Names this browser gives its keys, by key id (never by the key itself): a trial key has no account to keep
 * its name. Its own local-storage entry, so a bad value here can never cost the spec's user store its key.
 */
const names = persistedStore('keyNames', v.record(v.string(), v.pipe(v.string(), v.maxLength(60))), {})

export const useKeyNames = names.use
export const keyNameOf = (keyId: string): string | undefined => names.get()[keyId]

export function setKeyName(keyId: string, name: string) {
  const { [keyId]: _, ...rest } = names.get()
  names.set(name.trim() ? { ...rest, [keyId]: name.trim() } : rest)
}
