import { createFileRoute } from '@tanstack/react-router'
import { webhookDeliveriesAnswer, webhookDeliveriesQuery } from '~/contracts/webhooks'
import { webhookDeliveriesFor } from '~/server/api/webhooks/deliveries'
import { parseWebhookId } from '~/server/api/webhooks/endpoints'
import { endpoint } from '~/server/http/endpoint'

export const Route = createFileRoute('/api/v1/account/webhooks/$webhookId/deliveries/')({
  server: {
    handlers: {
      GET: endpoint(
        {
          summary: "A webhook endpoint's delivery log",
          description:
            'Newest first: each delivery with its event as sent and every attempt (time, duration, response status, the first KB of the answer, the error).',
          group: 'account',
          auth: 'session',
          query: webhookDeliveriesQuery,
          answer: webhookDeliveriesAnswer,
          errors: [401, 404, 422, 429],
        },
        ({ caller, params, query }) => webhookDeliveriesFor(caller, parseWebhookId(params), query),
      ),
    },
  },
})
