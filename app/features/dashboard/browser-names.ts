import * as v from 'valibot'
import { persistedStore } from '~/lib/persisted-store'

/**
 * Names this browser gives what has no account to keep a name: trial keys and classifiers, by their ids (never
 * by the key itself). Each list has its own local-storage entry, so a bad value there can never cost the spec's
 * user store its key.
 */
function nameStore(storageKey: string) {
  const store = persistedStore(storageKey, v.record(v.string(), v.pipe(v.string(), v.maxLength(60))), {})
  return {
    use: store.use,
    of: (id: string): string | undefined => store.get()[id],
    set(id: string, name: string) {
      const { [id]: _, ...rest } = store.get()
      store.set(name.trim() ? { ...rest, [id]: name.trim() } : rest)
    },
  }
}

export const keyNames = nameStore('keyNames')
/** Only read to move names an earlier version kept here to the server, where classifier names now live. */
export const classifierNames = nameStore('classifierNames')
