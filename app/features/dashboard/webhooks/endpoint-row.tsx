import { Trans, useLingui } from '@lingui/react/macro'
import { useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { ConfirmDialog, ConfirmPanel } from '~/components/confirm-dialog'
import { Badge } from '~/components/ui/badge'
import { Button } from '~/components/ui/button'
import type { WebhookEndpoint, WebhookEventType } from '~/contracts/webhooks'
import { notify } from '../notify'
import { toastError } from '../queries'
import { useDateTime } from '../use-date-time'
import { DeliveryLog } from './delivery-log'
import { EventChoices } from './event-choices'
import { SecretOnce } from './secret-once'
import { webhookKeys, webhooksApi } from './webhooks-api'

/** One endpoint: where it sends, what it wants, its state, and what its owner can do with it. */
export function EndpointRow({ endpoint }: { endpoint: WebhookEndpoint }) {
  const { t } = useLingui()
  const dateTime = useDateTime()
  const queryClient = useQueryClient()
  const [busy, setBusy] = useState(false)
  const [open, setOpen] = useState<'log' | 'events' | undefined>()
  const [events, setEvents] = useState<WebhookEventType[]>(endpoint.events)
  const [secret, setSecret] = useState<string>()
  const label = endpoint.description ?? endpoint.url

  const act = async (action: () => Promise<void>) => {
    setBusy(true)
    try {
      await action()
      await queryClient.invalidateQueries({ queryKey: webhookKeys.endpoints })
      await queryClient.invalidateQueries({ queryKey: webhookKeys.deliveries(endpoint.id) })
    } catch (error) {
      toastError(error)
    } finally {
      setBusy(false)
    }
  }
  const test = () =>
    act(async () => {
      await webhooksApi.test(endpoint.id)
      setOpen('log')
      notify.success(t`Test event sent.`)
    })
  const toggle = () =>
    act(async () => {
      await webhooksApi.update(endpoint.id, { disabled: !endpoint.disabled })
    })
  const saveEvents = () =>
    act(async () => {
      await webhooksApi.update(endpoint.id, { events })
      setOpen(undefined)
      notify.success(t`Events saved.`)
    })
  const rotate = (close: () => void) =>
    void act(async () => {
      setSecret((await webhooksApi.rotate(endpoint.id)).secret)
      close()
    })
  const remove = (close: () => void) =>
    void act(async () => {
      await webhooksApi.remove(endpoint.id)
      close()
      notify.success(t`Webhook endpoint deleted.`)
    })

  return (
    <li className="flex flex-col gap-2 border-b py-3 last:border-b-0" data-testid="webhook-endpoint">
      <div className="flex flex-wrap items-center gap-2">
        <span className="min-w-0 font-medium break-all">{label}</span>
        {endpoint.disabled ? (
          <Badge variant="outline">
            {endpoint.disabled_reason === 'failing' ? t`Disabled: failing for 3 days` : t`Disabled`}
          </Badge>
        ) : endpoint.failing_since ? (
          <Badge variant="outline">{t`Failing since ${dateTime(endpoint.failing_since)}`}</Badge>
        ) : (
          <Badge variant="success">{t`Active`}</Badge>
        )}
      </div>
      {endpoint.description && (
        <code translate="no" className="font-mono text-xs break-all text-muted-foreground">
          {endpoint.url}
        </code>
      )}
      <p className="text-sm break-words text-muted-foreground">
        <span translate="no">{endpoint.events.join(', ')}</span>
      </p>
      {endpoint.previous_secret_until && (
        <p className="text-sm text-muted-foreground">
          <Trans>The previous secret also signs until {dateTime(endpoint.previous_secret_until)}.</Trans>
        </p>
      )}
      {secret && <SecretOnce secret={secret} onDone={() => setSecret(undefined)} />}
      <div className="flex flex-wrap gap-2">
        <Button size="sm" onClick={() => void test()} disabled={busy || endpoint.disabled}>
          <Trans>Send test event</Trans>
        </Button>
        <Button
          size="sm"
          variant="outline"
          onClick={() => setOpen((o) => (o === 'log' ? undefined : 'log'))}
          aria-expanded={open === 'log'}
        >
          <Trans>Deliveries</Trans>
        </Button>
        <Button
          size="sm"
          variant="outline"
          onClick={() => setOpen((o) => (o === 'events' ? undefined : 'events'))}
          aria-expanded={open === 'events'}
        >
          <Trans>Events</Trans>
        </Button>
        <Button size="sm" variant="outline" onClick={() => void toggle()} disabled={busy}>
          {endpoint.disabled ? <Trans>Enable</Trans> : <Trans>Disable</Trans>}
        </Button>
        <ConfirmDialog
          trigger={
            <Button size="sm" variant="outline" disabled={busy}>
              <Trans>Rotate secret</Trans>
            </Button>
          }
        >
          <ConfirmPanel
            title={<Trans>Rotate the signing secret?</Trans>}
            description={
              <Trans>
                A new secret is made and shown once. For 24 hours the current one signs beside it, so your receiver can
                switch without missing an event.
              </Trans>
            }
            confirmLabel={<Trans>Rotate</Trans>}
            onConfirm={rotate}
            busy={busy}
          />
        </ConfirmDialog>
        <ConfirmDialog
          trigger={
            <Button size="sm" variant="outline" disabled={busy}>
              <Trans>Delete</Trans>
            </Button>
          }
        >
          <ConfirmPanel
            title={<Trans>Delete this endpoint?</Trans>}
            description={<Trans>Nothing more is sent to {label}, and its delivery log is deleted with it.</Trans>}
            confirmLabel={<Trans>Delete</Trans>}
            onConfirm={remove}
            destructive
            busy={busy}
          />
        </ConfirmDialog>
      </div>
      {open === 'events' && (
        <div className="flex flex-col gap-3 rounded-md border p-3">
          <EventChoices chosen={events} onChange={setEvents} testId="webhook-events" />
          <Button size="sm" className="w-fit" onClick={() => void saveEvents()} disabled={busy || events.length === 0}>
            <Trans>Save events</Trans>
          </Button>
        </div>
      )}
      {open === 'log' && <DeliveryLog endpointId={endpoint.id} disabled={endpoint.disabled} />}
    </li>
  )
}
