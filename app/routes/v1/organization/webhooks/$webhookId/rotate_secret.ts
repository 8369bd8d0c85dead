import { createFileRoute } from '@tanstack/react-router'
import { webhookWithSecretAnswer } from '~/contracts/webhooks'
import { rotateAdminWebhookSecretFor } from '~/server/api/admin/webhooks'
import { parseWebhookId } from '~/server/api/webhooks/endpoints'
import { endpoint } from '~/server/http/endpoint'

export const Route = createFileRoute('/v1/organization/webhooks/$webhookId/rotate_secret')({
  server: {
    handlers: {
      POST: endpoint(
        {
          summary: "Rotate a webhook endpoint's signing secret",
          description:
            'Answers the new `whsec_` secret, once. For 24 hours the previous secret signs too: `webhook-signature` then holds both signatures, space-separated.',
          group: 'organization',
          auth: 'admin-key',
          answer: webhookWithSecretAnswer,
          errors: [401, 403, 404, 429],
        },
        ({ caller, params }) => rotateAdminWebhookSecretFor(caller, parseWebhookId(params)),
      ),
    },
  },
})
