import { createFileRoute } from '@tanstack/react-router'
import {
  createWebhookInput,
  webhookEndpointsAnswer,
  webhooksQuery,
  webhookWithSecretAnswer,
} from '~/contracts/webhooks'
import { createWebhookFor, listWebhooksFor } from '~/server/api/webhooks/endpoints'
import { endpoint } from '~/server/http/endpoint'

export const Route = createFileRoute('/api/v1/account/webhooks/')({
  server: {
    handlers: {
      GET: endpoint(
        {
          summary: "An organisation's webhook endpoints",
          description:
            "Those of `organisation_id`, or of the account's personal organisation; for owners and admins (`webhooks.manage`).",
          group: 'account',
          auth: 'session',
          query: webhooksQuery,
          answer: webhookEndpointsAnswer,
          errors: [401, 403, 404, 422, 429],
        },
        ({ caller, query }) => listWebhooksFor(caller, query),
      ),
      POST: endpoint(
        {
          summary: 'Add a webhook endpoint',
          description:
            "Events are sent as Standard Webhooks: a signed POST of `{type, timestamp, data}`, retried for 3 days. The URL must be a public address (as the reader's are). The endpoint belongs to `organisation_id` (the account's personal organisation if absent) and gets the events of its keys. The answer holds the endpoint's `whsec_` signing secret, shown only here.",
          group: 'account',
          auth: 'session',
          json: createWebhookInput,
          answer: webhookWithSecretAnswer,
          errors: [401, 403, 404, 409, 422, 429],
        },
        ({ caller, json }) => createWebhookFor(caller, json),
      ),
    },
  },
})
