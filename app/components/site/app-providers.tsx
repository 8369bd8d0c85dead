import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { useState, type ReactNode } from 'react'
import { Toaster } from 'sonner'
import { resolveNotifyOptions, toasterPosition } from '~/lib/notify-options'

/** Spec §9's defaults (bottom, 5000 ms); each notification may ask for others through notify(). */
const defaults = resolveNotifyOptions()!

/**
 * Data fetching and notifications for the interactive parts (dashboard). Kept out of the root so
 * marketing pages never download TanStack Query or the toaster.
 */
export function AppProviders({ children }: { children: ReactNode }) {
  const [queryClient] = useState(
    () => new QueryClient({ defaultOptions: { queries: { staleTime: 30_000, retry: 1 } } }),
  )
  return (
    <QueryClientProvider client={queryClient}>
      {children}
      <Toaster position={toasterPosition[defaults.position]} duration={defaults.timeout} richColors closeButton />
    </QueryClientProvider>
  )
}
