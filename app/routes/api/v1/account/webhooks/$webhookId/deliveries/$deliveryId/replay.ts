import { createFileRoute } from '@tanstack/react-router'
import { webhookDeliverySchema } from '~/contracts/webhooks'
import { parseDeliveryId, replayWebhookDeliveryFor } from '~/server/api/webhooks/deliveries'
import { parseWebhookId } from '~/server/api/webhooks/endpoints'
import { endpoint } from '~/server/http/endpoint'

export const Route = createFileRoute('/api/v1/account/webhooks/$webhookId/deliveries/$deliveryId/replay')({
  server: {
    handlers: {
      POST: endpoint(
        {
          summary: 'Replay a webhook delivery',
          description:
            'Sends its event again now, as a new delivery with its own retries and the same `webhook-id` (receivers that already processed it can tell).',
          group: 'account',
          auth: 'session',
          answer: webhookDeliverySchema,
          errors: [401, 404, 409, 429],
        },
        ({ caller, params }) => replayWebhookDeliveryFor(caller, parseWebhookId(params), parseDeliveryId(params)),
      ),
    },
  },
})
