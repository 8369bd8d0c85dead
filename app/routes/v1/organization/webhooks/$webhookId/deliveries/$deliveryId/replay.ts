import { createFileRoute } from '@tanstack/react-router'
import { webhookDeliverySchema } from '~/contracts/webhooks'
import { replayAdminWebhookDeliveryFor } from '~/server/api/admin/webhooks'
import { parseDeliveryId } from '~/server/api/webhooks/deliveries'
import { parseWebhookId } from '~/server/api/webhooks/endpoints'
import { endpoint } from '~/server/http/endpoint'

export const Route = createFileRoute('/v1/organization/webhooks/$webhookId/deliveries/$deliveryId/replay')({
  server: {
    handlers: {
      POST: endpoint(
        {
          summary: 'Replay a delivery',
          description:
            "Sends the delivery's event again, at once, with the same `webhook-id` and a fresh set of retries.",
          group: 'organization',
          auth: 'admin-key',
          answer: webhookDeliverySchema,
          errors: [401, 403, 404, 409, 429],
        },
        ({ caller, params }) => replayAdminWebhookDeliveryFor(caller, parseWebhookId(params), parseDeliveryId(params)),
      ),
    },
  },
})
