import { createFileRoute } from '@tanstack/react-router'
import * as v from 'valibot'
import { updateWebhookInput, webhookEndpointSchema } from '~/contracts/webhooks'
import { adminWebhookFor, deleteAdminWebhookFor, updateAdminWebhookFor } from '~/server/api/admin/webhooks'
import { parseWebhookId } from '~/server/api/webhooks/endpoints'
import { endpoint } from '~/server/http/endpoint'

export const Route = createFileRoute('/v1/organization/webhooks/$webhookId/')({
  server: {
    handlers: {
      GET: endpoint(
        {
          summary: 'A webhook endpoint',
          group: 'organization',
          auth: 'admin-key',
          answer: webhookEndpointSchema,
          errors: [401, 403, 404, 429],
        },
        ({ caller, params }) => adminWebhookFor(caller, parseWebhookId(params)),
      ),
      POST: endpoint(
        {
          summary: 'Change a webhook endpoint',
          description:
            'Its URL, events, description, or `disabled`. Enabling an endpoint that was disabled for failing gives it a fresh start.',
          group: 'organization',
          auth: 'admin-key',
          json: updateWebhookInput,
          answer: webhookEndpointSchema,
          errors: [401, 403, 404, 422, 429],
        },
        ({ caller, params, json }) => updateAdminWebhookFor(caller, parseWebhookId(params), json),
      ),
      DELETE: endpoint(
        {
          summary: 'Delete a webhook endpoint',
          description: 'With its delivery log; nothing more is sent to it.',
          group: 'organization',
          auth: 'admin-key',
          answer: v.object({ detail: v.string() }),
          errors: [401, 403, 404, 429],
        },
        ({ caller, params }) => deleteAdminWebhookFor(caller, parseWebhookId(params)),
      ),
    },
  },
})
