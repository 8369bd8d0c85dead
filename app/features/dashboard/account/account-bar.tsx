import { Trans } from '@lingui/react/macro'
import { UserRoundIcon } from 'lucide-react'
import { cn } from '~/lib/utils'
import { LocalizedLink } from '~/components/site/localized-link'
import { useAuth } from '~/lib/auth/auth-context'
import { useStartAccount } from '../dashboard-key'
import { LogoutDialog } from './logout-dialog'

/**
 * Who is signed in, with sign-out; or the way to sign in (its place kept while unknown). Nothing when sign-in is
 * off.
 */
export function AccountBar() {
  const auth = useAuth()
  const known = useStartAccount()
  const { profile } = auth
  // Until the browser has checked, what the server knew (no session, or sign-in off) stands for the answer.
  const status = auth.status === 'loading' && known ? known : auth.status
  if (status === 'signed-in' && profile)
    return (
      <div
        className="flex flex-wrap items-center justify-between gap-3 rounded-lg border px-4 py-3"
        data-testid="account-bar"
      >
        <p className="flex min-w-0 items-center gap-2 text-sm">
          <UserRoundIcon aria-hidden="true" className="size-4 shrink-0" />
          <span className="min-w-0 break-all">
            <Trans>
              Signed in as <strong>{profile.displayName ?? profile.email ?? profile.uid}</strong>
            </Trans>
          </span>
        </p>
        <LogoutDialog />
      </div>
    )
  // While the session is being checked (the server's render and the first seconds after), the signed-out bar
  // holds its place unseen: when the answer comes, the page below does not move (Lighthouse counted the shift).
  const checking = status === 'loading'
  if (status === 'signed-out' || checking)
    return (
      <div
        className={cn(
          'flex flex-wrap items-center justify-between gap-3 rounded-lg border px-4 py-3',
          checking && 'invisible',
        )}
        aria-hidden={checking || undefined}
        data-testid={checking ? undefined : 'account-bar'}
      >
        <p className="text-sm text-muted-foreground">
          <Trans>Sign in to keep your keys on every device.</Trans>
        </p>
        <LocalizedLink
          to="/{-$locale}/sign-in"
          className="text-sm font-medium text-primary underline-offset-4 hover:underline"
          data-testid="sign-in-link"
        >
          <Trans>Sign in or create an account</Trans>
        </LocalizedLink>
      </div>
    )
  return null
}
