import { Trans, useLingui } from '@lingui/react/macro'
import { webhookEventTypes, type WebhookEventType } from '~/contracts/webhooks'
import { Choices } from '../account/control-choices'
import { eventLabels } from './event-labels'

/** The events an endpoint receives, each with its type name as the receiver sees it. */
export function EventChoices(props: {
  chosen: WebhookEventType[]
  onChange: (chosen: WebhookEventType[]) => void
  error?: string
  testId: string
}) {
  const { i18n } = useLingui()
  return (
    <Choices
      {...props}
      onChange={(chosen) => props.onChange(chosen as WebhookEventType[])}
      legend={<Trans>Events</Trans>}
      options={webhookEventTypes.map((type) => ({
        value: type,
        label: (
          <>
            {i18n._(eventLabels[type])}{' '}
            <code translate="no" className="font-mono text-xs text-muted-foreground">
              {type}
            </code>
          </>
        ),
      }))}
    />
  )
}
