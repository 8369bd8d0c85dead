import { createFileRoute, Outlet } from '@tanstack/react-router'
import { AuthShell } from '~/features/auth/auth-shell'

export const Route = createFileRoute('/{-$locale}/sign-in')({
  component: () => (
    <AuthShell>
      <Outlet />
    </AuthShell>
  ),
})
