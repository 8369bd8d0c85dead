import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { useState, type ReactNode } from 'react'
import { Toaster } from 'sonner'
import { constants } from '../../../app.config'

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
      <Toaster position="bottom-center" duration={constants.notificationTimeoutMs} richColors closeButton />
    </QueryClientProvider>
  )
}
