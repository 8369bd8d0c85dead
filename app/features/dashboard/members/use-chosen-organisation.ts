import { useCallback, useEffect, useState } from 'react'
import type { Organisation } from '~/contracts/organisations'

const storageKey = 'organisation'

/** Keeps `id` as the organisation the Members tab shows next: called only on the user's own choice. */
export function rememberOrganisation(id: string): void {
  try {
    window.localStorage.setItem(storageKey, id)
  } catch {
    // Not kept across visits; the choice still holds on this page.
  }
}

function stored(): string | null {
  try {
    return window.localStorage.getItem(storageKey)
  } catch {
    return null
  }
}

/** Personal first, the others in the server's order (oldest first). */
export const ordered = (list: Organisation[]) => [...list].sort((a, b) => Number(b.personal) - Number(a.personal))

/**
 * The organisation the Members tab shows: the one the user last chose (kept in local storage), else the personal
 * one. It changes only when the user chooses; `lost` says that the chosen one is no longer among theirs (left,
 * removed or deleted), so the screen can tell why it shows another.
 */
export function useChosenOrganisation(list: Organisation[] | undefined) {
  const [chosenId, setChosenId] = useState<string | null>(null)
  useEffect(() => setChosenId(stored()), [])
  const choose = useCallback((id: string) => {
    setChosenId(id)
    rememberOrganisation(id)
  }, [])
  const sorted = list ? ordered(list) : []
  const found = sorted.find((organisation) => organisation.id === chosenId)
  const chosen = found ?? sorted.find((organisation) => organisation.personal) ?? sorted[0]
  return { organisations: sorted, chosen, choose, lost: Boolean(list && chosenId && !found) }
}
