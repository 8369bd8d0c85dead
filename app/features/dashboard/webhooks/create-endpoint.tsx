import { Trans, useLingui } from '@lingui/react/macro'
import { useQueryClient } from '@tanstack/react-query'
import { useState, type FormEvent } from 'react'
import { FormField } from '~/components/form/form-field'
import { Button } from '~/components/ui/button'
import { Input } from '~/components/ui/input'
import type { WebhookEventType } from '~/contracts/webhooks'
import { notify } from '../notify'
import { toastError } from '../queries'
import { EventChoices } from './event-choices'
import { SecretOnce } from './secret-once'
import { webhookKeys, webhooksApi } from './webhooks-api'

/** Adds an endpoint: its URL, a description, the events it wants; then shows its secret once. */
export function CreateEndpoint() {
  const { t } = useLingui()
  const queryClient = useQueryClient()
  const [url, setUrl] = useState('')
  const [description, setDescription] = useState('')
  const [events, setEvents] = useState<WebhookEventType[]>([])
  const [eventsError, setEventsError] = useState<string>()
  const [busy, setBusy] = useState(false)
  const [secret, setSecret] = useState<string>()
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    if (events.length === 0) return setEventsError(t`Choose at least one event.`)
    setEventsError(undefined)
    setBusy(true)
    try {
      const created = await webhooksApi.create({ url: url.trim(), events, description: description.trim() || null })
      await queryClient.invalidateQueries({ queryKey: webhookKeys.endpoints })
      setUrl('')
      setDescription('')
      setEvents([])
      setSecret(created.secret)
      notify.success(t`Webhook endpoint added.`)
    } catch (error) {
      toastError(error)
    } finally {
      setBusy(false)
    }
  }
  if (secret) return <SecretOnce secret={secret} onDone={() => setSecret(undefined)} />
  return (
    <form onSubmit={submit} className="flex flex-col gap-4 border-t pt-4" data-testid="create-webhook">
      <FormField id="webhook-url" label={<Trans>Endpoint URL</Trans>}>
        {(field) => (
          <Input
            {...field}
            type="url"
            required
            inputMode="url"
            placeholder="https://example.com/webhooks"
            value={url}
            maxLength={2048}
            onChange={(e) => setUrl(e.target.value)}
          />
        )}
      </FormField>
      <FormField id="webhook-description" label={<Trans>Description (optional)</Trans>}>
        {(field) => (
          <Input {...field} value={description} maxLength={200} onChange={(e) => setDescription(e.target.value)} />
        )}
      </FormField>
      <EventChoices chosen={events} onChange={setEvents} error={eventsError} testId="new-webhook-events" />
      <Button type="submit" className="w-fit" disabled={busy} aria-busy={busy}>
        <Trans>Add endpoint</Trans>
      </Button>
    </form>
  )
}
