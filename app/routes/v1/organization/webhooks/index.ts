import { createFileRoute } from '@tanstack/react-router'
import { listQuery } from '~/contracts/admin-api'
import { adminWebhookInput, adminWebhooksAnswer } from '~/contracts/admin-webhooks'
import { webhookWithSecretAnswer } from '~/contracts/webhooks'
import { adminWebhooksFor, createAdminWebhookFor } from '~/server/api/admin/webhooks'
import { endpoint } from '~/server/http/endpoint'

export const Route = createFileRoute('/v1/organization/webhooks/')({
  server: {
    handlers: {
      GET: endpoint(
        {
          summary: "The organisation's webhook endpoints",
          group: 'organization',
          auth: 'admin-key',
          query: listQuery,
          answer: adminWebhooksAnswer,
          errors: [401, 403, 404, 422, 429],
        },
        ({ caller, query }) => adminWebhooksFor(caller, query),
      ),
      POST: endpoint(
        {
          summary: 'Add a webhook endpoint',
          description:
            "Events are sent as Standard Webhooks: a signed POST of `{type, timestamp, data}`, retried for 3 days. The URL must be a public address (as the reader's are). The endpoint gets the events of the organisation's keys. The answer holds its `whsec_` signing secret, shown only here.",
          group: 'organization',
          auth: 'admin-key',
          json: adminWebhookInput,
          answer: webhookWithSecretAnswer,
          errors: [401, 403, 404, 409, 422, 429],
        },
        ({ caller, json }) => createAdminWebhookFor(caller, json),
      ),
    },
  },
})
