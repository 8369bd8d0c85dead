import { Trans, useLingui } from '@lingui/react/macro'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { Badge } from '~/components/ui/badge'
import { Button } from '~/components/ui/button'
import { Card, CardContent, CardHeader, CardTitle } from '~/components/ui/card'
import type { RechargeStatus } from '~/contracts/payments'
import { useFormat } from '~/lib/format'
import { notify } from '../notify'
import { refreshKey } from '../queries'
import { stopRechargeMutation } from '../billing/queries'

function useAttemptLabel(): Record<NonNullable<RechargeStatus['last_attempt']>['status'], string> {
  const { t } = useLingui()
  return {
    pending: t`Waiting to charge`,
    charging: t`Charging`,
    succeeded: t`Charged`,
    failed: t`Failed`,
    skipped: t`Not needed`,
  }
}

/** Where auto-recharge stands: on or off, its threshold and card, and how its last attempt went. */
export function RechargeStatusCard({ apiKey, status }: { apiKey: string; status: RechargeStatus }) {
  const { t } = useLingui()
  const format = useFormat()
  const attemptLabel = useAttemptLabel()
  const queryClient = useQueryClient()
  const stop = useMutation(stopRechargeMutation())
  const turnOff = () =>
    stop.mutate(
      { apiKey },
      {
        onSuccess: () => {
          void refreshKey(queryClient, apiKey)
          notify.success(t`Auto-recharge is off.`)
        },
      },
    )
  const attempt = status.last_attempt
  return (
    <Card aria-labelledby="recharge-status-title" data-testid="recharge-status" data-enabled={status.enabled}>
      <CardHeader row>
        <CardTitle id="recharge-status-title">
          <Trans>Auto-recharge</Trans>
        </CardTitle>
        {status.enabled ? <Badge variant="success">{t`On`}</Badge> : <Badge variant="outline">{t`Off`}</Badge>}
      </CardHeader>
      <CardContent className="flex flex-col gap-3 text-sm">
        {status.enabled && status.threshold !== null && (
          <p>
            <Trans>Buys a pack when the balance falls below {format.tokens(status.threshold)} tokens.</Trans>
          </p>
        )}
        {status.card && (
          <p className="text-muted-foreground">
            <Trans>
              Saved card: {status.card.brand} •••• {status.card.last4}
            </Trans>
          </p>
        )}
        {status.disabled_reason && (
          <p role="alert" className="text-destructive" data-testid="recharge-disabled-reason">
            <Trans>Auto-recharge turned itself off: {status.disabled_reason}</Trans>
          </p>
        )}
        {attempt && (
          <p className="text-muted-foreground" data-testid="recharge-last-attempt" data-status={attempt.status}>
            <Trans>
              Last recharge: {attemptLabel[attempt.status]},{' '}
              {format.dateTime(attempt.finished_at ?? attempt.created_at)}
            </Trans>
            {attempt.failure && attempt.status === 'failed' ? ` (${attempt.failure})` : ''}
          </p>
        )}
        {status.enabled && (
          <Button
            variant="outline"
            className="w-fit"
            disabled={stop.isPending}
            onClick={turnOff}
            data-testid="stop-recharge"
          >
            <Trans>Turn off</Trans>
          </Button>
        )}
      </CardContent>
    </Card>
  )
}
