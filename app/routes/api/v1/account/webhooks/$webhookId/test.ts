import { createFileRoute } from '@tanstack/react-router'
import { webhookDeliverySchema } from '~/contracts/webhooks'
import { sendTestWebhookFor } from '~/server/api/webhooks/deliveries'
import { parseWebhookId } from '~/server/api/webhooks/endpoints'
import { endpoint } from '~/server/http/endpoint'

export const Route = createFileRoute('/api/v1/account/webhooks/$webhookId/test')({
  server: {
    handlers: {
      POST: endpoint(
        {
          summary: 'Send a test event to a webhook endpoint',
          description:
            'A `webhook.test` event, signed and retried as any other, to this endpoint whatever events it asked for. Answers its delivery; its attempts appear in the delivery log.',
          group: 'account',
          auth: 'session',
          answer: webhookDeliverySchema,
          errors: [401, 404, 409, 429],
        },
        ({ caller, params }) => sendTestWebhookFor(caller, parseWebhookId(params)),
      ),
    },
  },
})
