import type { ReactNode } from 'react'
import { AppProviders } from '~/components/site/app-providers'
import { SiteHeader } from '~/components/site/header'
import { AuthProvider } from '~/lib/auth/auth-context'

/** The frame of the screens that know who is signed in: the dashboard and the sign-in pages. */
export function AuthShell({ children }: { children: ReactNode }) {
  return (
    <AppProviders>
      <AuthProvider>
        <SiteHeader />
        <main id="main" className="mx-auto max-w-6xl px-4 py-8">
          {children}
        </main>
      </AuthProvider>
    </AppProviders>
  )
}
