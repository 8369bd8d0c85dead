import { Trans } from '@lingui/react/macro'
import { useQuery } from '@tanstack/react-query'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '~/components/ui/card'
import { LocalizedLink } from '~/components/site/localized-link'
import { Skeleton } from '~/components/ui/skeleton'
import { fetchTicketCount } from '~/lib/auth/account-api'
import { useAuth } from '~/lib/auth/auth-context'
import { useFormat } from '~/lib/format'
import { accountKeys } from './queries'

/** Spec §7 tickets viewer: requests the user sent to sales and support. */
export function TicketsCard() {
  const { idToken, status, identity } = useAuth()
  const format = useFormat()
  const tickets = useQuery({
    queryKey: accountKeys.tickets,
    queryFn: async () => fetchTicketCount(await idToken()),
    enabled: status === 'signed-in',
  })
  const count = tickets.data ?? 0
  return (
    <Card aria-labelledby="tickets-title">
      <CardHeader>
        <CardTitle id="tickets-title">
          <Trans>Support requests</Trans>
        </CardTitle>
        <CardDescription>
          <Trans>Requests you sent to sales and support with your account's e-mail.</Trans>
          {identity && !identity.emailVerified && (
            <>
              {' '}
              <Trans>They are counted once your e-mail address is verified.</Trans>
            </>
          )}
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-wrap items-center justify-between gap-3">
        {tickets.isPending ? (
          <Skeleton className="h-8 w-24" />
        ) : tickets.isError ? (
          <p className="text-sm text-muted-foreground">
            <Trans>The count could not be loaded.</Trans>
          </p>
        ) : (
          <p className="text-2xl font-semibold tabular-nums" data-testid="ticket-count">
            {format.tokens(count)}
          </p>
        )}
        <LocalizedLink
          to="/{-$locale}/contact-sales"
          className="text-sm text-primary underline-offset-4 hover:underline"
        >
          <Trans>Contact sales</Trans>
        </LocalizedLink>
      </CardContent>
    </Card>
  )
}
