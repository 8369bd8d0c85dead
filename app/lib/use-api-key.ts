import { useSyncExternalStore } from 'react'
import { updateUserStore, useUserStore } from '~/lib/settings'

const noop = () => () => {}

/** False on the server and during hydration: the key lives in local storage, so only then is "no key" known. */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    noop,
    () => true,
    () => false,
  )
}

/** The current API key; `ready` tells a missing key apart from one the server cannot know. */
export function useApiKey(): { apiKey: string | null; ready: boolean } {
  const { apiKey } = useUserStore()
  const ready = useHydrated()
  return { apiKey: ready ? apiKey : null, ready }
}

export function setApiKey(apiKey: string | null) {
  updateUserStore((store) => ({ ...store, apiKey }))
}
