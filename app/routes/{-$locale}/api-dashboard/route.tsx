import { createFileRoute, Outlet } from '@tanstack/react-router'
import { AuthShell } from '~/features/auth/auth-shell'
import { dashboardSearchSchema } from '~/lib/guard-search'

/** `login` comes from the farewell redirect; `sui` and `s` are declared on the locale route above (spec §2). */
export const Route = createFileRoute('/{-$locale}/api-dashboard')({
  validateSearch: dashboardSearchSchema,
  component: () => (
    <AuthShell>
      <Outlet />
    </AuthShell>
  ),
})
