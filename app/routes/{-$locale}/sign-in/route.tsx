import { createFileRoute, Outlet } from '@tanstack/react-router'
import { AuthShell } from '~/features/auth/auth-shell'
import { loadCatalog } from '~/lib/i18n'

export const Route = createFileRoute('/{-$locale}/sign-in')({
  // The live screens' catalog: see the dashboard's layout route.
  staticData: { catalogs: ['app'] },
  loader: async ({ context }) => void (await loadCatalog(context.locale, 'app')),
  component: SignInLayout,
})

function SignInLayout() {
  return (
    <AuthShell>
      <Outlet />
    </AuthShell>
  )
}
