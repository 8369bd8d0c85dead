import { Trans, useLingui } from '@lingui/react/macro'
import { useQuery } from '@tanstack/react-query'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '~/components/ui/card'
import { Skeleton } from '~/components/ui/skeleton'
import { LocalizedLink } from '~/components/site/localized-link'
import { useAuth } from '~/lib/auth/auth-context'
import { AccountBar } from '../account/account-bar'
import { CreateEndpoint } from './create-endpoint'
import { EndpointRow } from './endpoint-row'
import { endpointsQuery } from './webhooks-api'

/** The account's webhook endpoints: add one, and for each its events, secret, test event and delivery log. */
export function WebhooksTab() {
  const { t } = useLingui()
  const { status } = useAuth()
  const endpoints = useQuery(endpointsQuery(status === 'signed-in'))
  if (status === 'signed-out' || status === 'unavailable') return <AccountBar />
  if (status !== 'signed-in') return <Skeleton className="h-96 w-full rounded-xl" />
  const list = endpoints.data?.endpoints ?? []
  return (
    <Card aria-labelledby="webhooks-title" data-testid="webhooks">
      <CardHeader>
        <CardTitle id="webhooks-title">
          <Trans>Webhooks</Trans>
        </CardTitle>
        <CardDescription>
          <Trans>
            Signed events sent to your endpoints when a balance runs low, a job or a batch completes, a payment goes
            through or a key is created or revoked. See{' '}
            <LocalizedLink to="/{-$locale}/docs/$slug" params={{ slug: 'webhooks' }} className="underline">
              the webhooks documentation
            </LocalizedLink>{' '}
            to verify them.
          </Trans>
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-6">
        {endpoints.isPending ? (
          <Skeleton className="h-24 w-full" />
        ) : list.length ? (
          <ul aria-label={t`Webhook endpoints`}>
            {list.map((endpoint) => (
              <EndpointRow key={endpoint.id} endpoint={endpoint} />
            ))}
          </ul>
        ) : (
          <p className="text-sm text-muted-foreground">
            <Trans>No webhook endpoints yet.</Trans>
          </p>
        )}
        <CreateEndpoint />
      </CardContent>
    </Card>
  )
}
