import { createFileRoute } from '@tanstack/react-router'
import { webhookWithSecretAnswer } from '~/contracts/webhooks'
import { parseWebhookId, rotateWebhookSecretFor } from '~/server/api/webhooks/endpoints'
import { endpoint } from '~/server/http/endpoint'

export const Route = createFileRoute('/api/v1/account/webhooks/$webhookId/rotate_secret')({
  server: {
    handlers: {
      POST: endpoint(
        {
          summary: "Rotate a webhook endpoint's signing secret",
          description:
            'Answers the new `whsec_` secret, once. For 24 hours the previous secret signs too: `webhook-signature` then holds both signatures, space-separated, so receivers can switch without missing an event.',
          group: 'account',
          auth: 'session',
          answer: webhookWithSecretAnswer,
          errors: [401, 404, 429],
        },
        ({ caller, params }) => rotateWebhookSecretFor(caller, parseWebhookId(params)),
      ),
    },
  },
})
