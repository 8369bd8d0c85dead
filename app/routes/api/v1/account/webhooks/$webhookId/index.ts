import { createFileRoute } from '@tanstack/react-router'
import * as v from 'valibot'
import { updateWebhookInput, webhookEndpointSchema } from '~/contracts/webhooks'
import { deleteWebhookFor, parseWebhookId, updateWebhookFor, webhookFor } from '~/server/api/webhooks/endpoints'
import { endpoint } from '~/server/http/endpoint'

export const Route = createFileRoute('/api/v1/account/webhooks/$webhookId/')({
  server: {
    handlers: {
      GET: endpoint(
        {
          summary: 'A webhook endpoint',
          group: 'account',
          auth: 'session',
          answer: webhookEndpointSchema,
          errors: [401, 404, 429],
        },
        ({ caller, params }) => webhookFor(caller, parseWebhookId(params)),
      ),
      PATCH: endpoint(
        {
          summary: 'Change a webhook endpoint',
          description:
            'Its URL, events, description, or `disabled`. Enabling an endpoint that was disabled for failing gives it a fresh start.',
          group: 'account',
          auth: 'session',
          json: updateWebhookInput,
          answer: webhookEndpointSchema,
          errors: [401, 404, 422, 429],
        },
        ({ caller, params, json }) => updateWebhookFor(caller, parseWebhookId(params), json),
      ),
      DELETE: endpoint(
        {
          summary: 'Delete a webhook endpoint',
          description: 'With its delivery log; nothing more is sent to it.',
          group: 'account',
          auth: 'session',
          answer: v.object({ detail: v.string() }),
          errors: [401, 404, 429],
        },
        ({ caller, params }) => deleteWebhookFor(caller, parseWebhookId(params)),
      ),
    },
  },
})
