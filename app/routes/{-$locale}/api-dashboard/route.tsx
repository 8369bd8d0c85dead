import { createFileRoute, Outlet } from '@tanstack/react-router'
import { AppProviders } from '~/components/site/app-providers'
import { SiteHeader } from '~/components/site/header'
import { dashboardSearchSchema } from '~/lib/guard-search'

/** `login` comes from the farewell redirect; `sui` and `s` are declared on the locale route above (spec §2). */
export const Route = createFileRoute('/{-$locale}/api-dashboard')({
  validateSearch: dashboardSearchSchema,
  component: () => (
    <AppProviders>
      <SiteHeader />
      <main id="main" className="mx-auto max-w-6xl px-4 py-8">
        <Outlet />
      </main>
    </AppProviders>
  ),
})
