import { useQueryClient } from '@tanstack/react-query'
import { createContext, useContext, useState, type ReactNode } from 'react'
import { useApiKey } from '~/lib/use-api-key'
import { startQueries, type DashboardStart } from './start-data'

/** The key of the `apiKey` cookie the server rendered the page for; gone once the browser's own store is read. */
const StartKey = createContext<string | undefined>(undefined)
/** What the server knew of the visitor's sign-in (DashboardStart's `account`). */
const StartAccount = createContext<DashboardStart['account']>(undefined)

/** The account bar's state as the server knew it, for the render before the browser has checked. */
export const useStartAccount = () => useContext(StartAccount)

/**
 * Puts the answers the server read for this page (start.functions.ts) into the query cache before anything
 * renders, on the server and again, from the page's hydration data, in the browser: both render the same
 * figures, and the browser refreshes them after it hydrates.
 */
export function DashboardStartProvider({ start, children }: { start: DashboardStart | null; children: ReactNode }) {
  const queryClient = useQueryClient()
  useState(() => {
    for (const [key, data] of start ? startQueries(start) : [])
      if (queryClient.getQueryData(key) === undefined) queryClient.setQueryData(key, data)
  })
  return (
    <StartKey.Provider value={start?.apiKey}>
      <StartAccount.Provider value={start?.account}>{children}</StartAccount.Provider>
    </StartKey.Provider>
  )
}

/**
 * The dashboard's key: the browser's store once it is read (it decides, spec §3), before that the cookie's key
 * the server rendered with, so the server's HTML and the hydrating render show the key's screens, not skeletons.
 */
export function useDashboardKey(): { apiKey: string | null; ready: boolean } {
  const stored = useApiKey()
  const startKey = useContext(StartKey)
  if (!stored.ready && startKey) return { apiKey: startKey, ready: true }
  return stored
}
