import { createFileRoute } from '@tanstack/react-router'
import { checkoutAnswer, checkoutBody } from '~/contracts/payments'
import { createCheckoutFor } from '~/server/api/payments/checkout'
import { endpoint } from '~/server/http/endpoint'

export const Route = createFileRoute('/api/v1/checkout_session')({
  server: {
    handlers: {
      POST: endpoint(
        {
          summary: 'Start a checkout for a token pack',
          description:
            "Answers the checkout's `url` (Stripe's hosted page, or the built-in sandbox's). The tokens are credited to the key when the payment succeeds, once, and the key becomes paid (spec §6); the premium pack makes it premium. Return URLs must be pages of this site.",
          group: 'billing',
          auth: 'key',
          json: checkoutBody,
          example: { price_id: 'price_tokens_1b' },
          answer: checkoutAnswer,
          errors: [401, 422, 429, 501, 502],
        },
        ({ caller, json }) => createCheckoutFor(caller, json),
      ),
    },
  },
})
