import { Trans, useLingui } from '@lingui/react/macro'
import { useInfiniteQuery, useQuery } from '@tanstack/react-query'
import { LocalizedLink } from '~/components/site/localized-link'
import { Badge } from '~/components/ui/badge'
import { buttonVariants } from '~/components/ui/button'
import { Card, CardContent, CardHeader, CardTitle } from '~/components/ui/card'
import { Meter } from '~/components/ui/meter'
import { Skeleton } from '~/components/ui/skeleton'
import { useFormat } from '~/lib/format'
import { useDateTime } from '../use-date-time'
import { keyInfoQuery, transactionsQuery } from '../queries'
import { keyStatus, meterScale, type ScaleBasis } from './key-status'

/** Fixed height: the skeleton, the figures and the error state all take the same room. */
const cardClass = 'min-h-56'

export function BalanceCardSkeleton() {
  return <Skeleton className={`${cardClass} w-full rounded-xl`} />
}

export function BalanceCard({ apiKey }: { apiKey: string }) {
  const { t } = useLingui()
  const format = useFormat()
  const dateTime = useDateTime()
  const info = useQuery(keyInfoQuery(apiKey))
  const transactions = useInfiniteQuery(transactionsQuery(apiKey))
  if (info.isPending) return <BalanceCardSkeleton />
  if (info.isError) {
    return (
      <Card className={cardClass} role="alert" data-testid="key-info-error">
        <CardHeader>
          <CardTitle>
            <Trans>This key could not be checked</Trans>
          </CardTitle>
        </CardHeader>
        <CardContent className="flex flex-col gap-2 text-sm text-muted-foreground">
          <p>{info.error.message}</p>
          <p>
            <Trans>If the key was revoked or transferred, forget it and get or paste another one.</Trans>
          </p>
        </CardContent>
      </Card>
    )
  }
  const balance = info.data.wallet.total_balance
  const { scale, basis } = meterScale(balance, transactions.data?.pages[0]?.transactions)
  const status = keyStatus(info.data)
  const balanceText = format.tokens(balance)
  const scaleText = format.tokens(scale)
  const latest = transactions.data?.pages[0]?.transactions[0]
  return (
    <Card className={cardClass} aria-labelledby="balance-title">
      <CardHeader row>
        <CardTitle id="balance-title">
          <Trans>Token balance</Trans>
        </CardTitle>
        <div className="flex flex-wrap gap-1.5" data-testid="key-badges">
          {status.paid ? <Badge variant="success">{t`Paid`}</Badge> : <Badge variant="secondary">{t`Trial`}</Badge>}
          {status.premium && <Badge>{t`Premium`}</Badge>}
          {status.autoChargeEligible && <Badge variant="outline">{t`Auto-recharge eligible`}</Badge>}
          <LocalizedLink
            to="/{-$locale}/api-dashboard/{-$tab}"
            params={{ tab: 'billing' }}
            className={buttonVariants({ size: 'sm', variant: 'outline' })}
            data-testid="buy-tokens"
          >
            <Trans>Buy tokens</Trans>
          </LocalizedLink>
        </div>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <p className="flex flex-wrap items-baseline gap-x-2">
          <span
            data-testid="balance"
            data-value={balance}
            className="text-4xl font-semibold tabular-nums tracking-tight"
          >
            {balanceText}
          </span>
          <span className="text-muted-foreground">
            <Trans>tokens</Trans>
          </span>
        </p>
        <Meter
          value={balance}
          max={scale}
          valueText={t`${balanceText} of ${scaleText} tokens`}
          aria-label={t`Balance`}
        />
        <p className="text-xs text-muted-foreground" data-testid="balance-scale" data-basis={basis}>
          <ScaleCaption basis={basis} scaleText={scaleText} />
          {latest && (
            <>
              {' '}
              <Trans>Last activity: {dateTime(latest.created_at)}.</Trans>
            </>
          )}
        </p>
      </CardContent>
    </Card>
  )
}

/** Names what the bar is drawn against: "Scale" alone said neither which pack nor that it may be the balance. */
function ScaleCaption({ basis, scaleText }: { basis: ScaleBasis; scaleText: string }) {
  if (basis === 'purchase')
    return <Trans>Bar drawn against {scaleText} tokens: the largest pack among this key's recent transactions.</Trans>
  if (basis === 'transfer')
    return (
      <Trans>
        Bar drawn against {scaleText} tokens: the largest transfer into this key among its recent transactions.
      </Trans>
    )
  if (basis === 'free_pack') return <Trans>Bar drawn against {scaleText} tokens: the free pack.</Trans>
  return (
    <Trans>
      Bar drawn against {scaleText} tokens: the balance itself, more than the free pack and any recent pack or transfer.
    </Trans>
  )
}
