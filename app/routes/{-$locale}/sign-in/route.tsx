import { createFileRoute, Outlet } from '@tanstack/react-router'
import { AuthShell } from '~/features/auth/auth-shell'
import { loadMessages } from '~/lib/i18n'

export const Route = createFileRoute('/{-$locale}/sign-in')({
  // The live screens' catalog: see the dashboard's layout route.
  loader: ({ context }) => loadMessages(context.locale, 'app'),
  component: SignInLayout,
})

function SignInLayout() {
  return (
    <AuthShell appMessages={Route.useLoaderData()}>
      <Outlet />
    </AuthShell>
  )
}
