import { Trans } from '@lingui/react/macro'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { getRouteApi } from '@tanstack/react-router'
import { CheckCircle2Icon, ClockIcon, XCircleIcon } from 'lucide-react'
import { useEffect } from 'react'
import { Card, CardContent } from '~/components/ui/card'
import { useFormat } from '~/lib/format'
import { refreshKey } from '../queries'
import { checkoutReturnQuery } from './queries'

const route = getRouteApi('/{-$locale}/api-dashboard/{-$tab}')

/**
 * Where a checkout sends the buyer back (`?checkout=success&session=…` or `?checkout=cancelled`): the
 * purchase is confirmed on the spot (credited now if it is paid, whether or not the webhook came first) and
 * the new balance shown; a payment still on its way is polled until it settles.
 */
export function CheckoutReturn({ apiKey }: { apiKey: string }) {
  const { checkout, session } = route.useSearch()
  if (checkout === 'cancelled')
    return (
      <Notice icon={XCircleIcon} testId="checkout-cancelled">
        <Trans>Checkout cancelled. Nothing was charged.</Trans>
      </Notice>
    )
  if (checkout === 'success' && session) return <Confirmation apiKey={apiKey} session={session} />
  return null
}

function Confirmation({ apiKey, session }: { apiKey: string; session: string }) {
  const format = useFormat()
  const queryClient = useQueryClient()
  const confirmed = useQuery(checkoutReturnQuery(apiKey, session))
  const status = confirmed.data?.status
  // A purchase credited (or a card saved) here changes the balance, the history and what auto-recharge can do.
  useEffect(() => {
    if (status === 'paid' || status === 'card_saved') void refreshKey(queryClient, apiKey)
  }, [status, apiKey, queryClient])
  if (confirmed.isPending || status === 'pending')
    return (
      <Notice icon={ClockIcon} testId="checkout-pending">
        <Trans>Your payment is being confirmed…</Trans>
      </Notice>
    )
  if (confirmed.isError || status === 'failed')
    return (
      <Notice icon={XCircleIcon} testId="checkout-failed">
        <Trans>This payment did not go through, so no tokens were added.</Trans>
      </Notice>
    )
  if (status === 'card_saved') {
    const last4 = confirmed.data!.card?.last4 ?? '••••'
    return (
      <Notice icon={CheckCircle2Icon} testId="card-saved" tone="success">
        <Trans>Your card ending {last4} is saved and auto-recharge is on. Nothing was charged.</Trans>
      </Notice>
    )
  }
  const tokens = format.tokens(confirmed.data!.tokens)
  const balance = format.tokens(confirmed.data!.balance)
  return (
    <Notice icon={CheckCircle2Icon} testId="checkout-paid" tone="success">
      <Trans>
        Payment received: {tokens} tokens were added. Your balance is now {balance} tokens.
      </Trans>
    </Notice>
  )
}

function Notice({
  icon: Icon,
  children,
  testId,
  tone = 'muted',
}: {
  icon: typeof ClockIcon
  children: React.ReactNode
  testId: string
  tone?: 'muted' | 'success'
}) {
  return (
    <Card role="status" data-testid={testId}>
      <CardContent className="flex items-start gap-2 text-sm">
        <Icon
          aria-hidden="true"
          className={tone === 'success' ? 'size-5 shrink-0 text-success' : 'size-5 shrink-0 text-muted-foreground'}
        />
        <p>{children}</p>
      </CardContent>
    </Card>
  )
}
