import { Trans, useLingui } from '@lingui/react/macro'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { Badge } from '~/components/ui/badge'
import { Button } from '~/components/ui/button'
import { Skeleton } from '~/components/ui/skeleton'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '~/components/ui/table'
import type { WebhookDelivery } from '~/contracts/webhooks'
import { notify } from '../notify'
import { toastError } from '../queries'
import { useDateTime } from '../use-date-time'
import { deliveriesQuery, webhookKeys, webhooksApi } from './webhooks-api'

/** An endpoint's last deliveries: the event, its state, each attempt's answer, and a replay. */
export function DeliveryLog({ endpointId, disabled }: { endpointId: string; disabled: boolean }) {
  const { t } = useLingui()
  const dateTime = useDateTime()
  const queryClient = useQueryClient()
  const log = useQuery(deliveriesQuery(endpointId))
  const [busy, setBusy] = useState(false)
  const statusLabel = (status: WebhookDelivery['status']) =>
    status === 'delivered' ? t`Delivered` : status === 'failed' ? t`Failed` : t`Retrying`
  const lastAnswer = (delivery: WebhookDelivery) => {
    const last = delivery.attempts.at(-1)
    if (!last) return t`Not attempted yet`
    return last.response_status === null ? (last.error ?? '') : `HTTP ${last.response_status} · ${last.duration_ms} ms`
  }
  const replay = async (deliveryId: string) => {
    setBusy(true)
    try {
      await webhooksApi.replay(endpointId, deliveryId)
      await queryClient.invalidateQueries({ queryKey: webhookKeys.deliveries(endpointId) })
      notify.success(t`The event is being sent again.`)
    } catch (error) {
      toastError(error)
    } finally {
      setBusy(false)
    }
  }
  if (log.isPending) return <Skeleton className="h-24 w-full" />
  const deliveries = log.data?.deliveries ?? []
  return (
    <div className="flex flex-col gap-2" data-testid="webhook-deliveries">
      <div className="flex items-center justify-between gap-2">
        <h3 className="text-sm font-medium">
          <Trans>Deliveries</Trans>
        </h3>
        <Button size="sm" variant="ghost" onClick={() => void log.refetch()}>
          <Trans>Refresh</Trans>
        </Button>
      </div>
      {deliveries.length === 0 ? (
        <p className="text-sm text-muted-foreground">
          <Trans>Nothing sent yet. Send a test event to try the endpoint.</Trans>
        </p>
      ) : (
        <Table label={t`Deliveries`}>
          <TableHeader>
            <TableRow>
              <TableHead>{t`Event`}</TableHead>
              <TableHead>{t`Created`}</TableHead>
              <TableHead>{t`State`}</TableHead>
              <TableHead>{t`Attempts`}</TableHead>
              <TableHead>{t`Last answer`}</TableHead>
              <TableHead>
                <span className="sr-only">{t`Actions`}</span>
              </TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {deliveries.map((delivery) => (
              <TableRow key={delivery.id}>
                <TableCell>
                  <code translate="no" className="font-mono text-xs">
                    {delivery.event_type}
                  </code>
                </TableCell>
                <TableCell className="whitespace-nowrap">{dateTime(delivery.created_at)}</TableCell>
                <TableCell>
                  <Badge variant={delivery.status === 'delivered' ? 'success' : 'outline'}>
                    {statusLabel(delivery.status)}
                  </Badge>
                </TableCell>
                <TableCell className="tabular-nums">{delivery.attempts.length}</TableCell>
                <TableCell className="max-w-72 break-words">{lastAnswer(delivery)}</TableCell>
                <TableCell>
                  <Button
                    size="sm"
                    variant="outline"
                    disabled={busy || disabled}
                    onClick={() => void replay(delivery.id)}
                    aria-label={t`Replay the ${delivery.event_type} event of ${dateTime(delivery.created_at)}`}
                  >
                    <Trans>Replay</Trans>
                  </Button>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </div>
  )
}
