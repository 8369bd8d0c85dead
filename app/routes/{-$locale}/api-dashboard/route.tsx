import { createFileRoute, Outlet } from '@tanstack/react-router'
import { AuthShell } from '~/features/auth/auth-shell'
import { dashboardSearchSchema } from '~/lib/guard-search'
import { loadCatalog } from '~/lib/i18n'

/** `login` comes from the farewell redirect; `sui` and `s` are declared on the locale route above (spec §2). */
export const Route = createFileRoute('/{-$locale}/api-dashboard')({
  validateSearch: dashboardSearchSchema,
  // The live screens' catalog, in the root's locale. That locale is in this match's path, so another
  // language is another match, whose loader the navigation waits for.
  staticData: { catalogs: ['app'] },
  loader: async ({ context }) => void (await loadCatalog(context.locale, 'app')),
  component: DashboardLayout,
})

function DashboardLayout() {
  return (
    <AuthShell>
      <Outlet />
    </AuthShell>
  )
}
