import { createFileRoute } from '@tanstack/react-router'
import { adminWebhookDeliveriesAnswer } from '~/contracts/admin-webhooks'
import { webhookDeliveriesQuery } from '~/contracts/webhooks'
import { adminWebhookDeliveriesFor } from '~/server/api/admin/webhooks'
import { parseWebhookId } from '~/server/api/webhooks/endpoints'
import { endpoint } from '~/server/http/endpoint'

export const Route = createFileRoute('/v1/organization/webhooks/$webhookId/deliveries/')({
  server: {
    handlers: {
      GET: endpoint(
        {
          summary: "A webhook endpoint's delivery log",
          description: 'Newest first, each delivery with its attempts.',
          group: 'organization',
          auth: 'admin-key',
          query: webhookDeliveriesQuery,
          answer: adminWebhookDeliveriesAnswer,
          errors: [401, 403, 404, 422, 429],
        },
        ({ caller, params, query }) => adminWebhookDeliveriesFor(caller, parseWebhookId(params), query),
      ),
    },
  },
})
