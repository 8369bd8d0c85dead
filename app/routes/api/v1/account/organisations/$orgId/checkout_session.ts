import { createFileRoute } from '@tanstack/react-router'
import { checkoutAnswer, checkoutBody } from '~/contracts/payments'
import { organisationCheckoutFor } from '~/server/api/organisations/billing'
import { parseOrganisationId } from '~/server/api/organisations/params'
import { endpoint } from '~/server/http/endpoint'

export const Route = createFileRoute('/api/v1/account/organisations/$orgId/checkout_session')({
  server: {
    handlers: {
      POST: endpoint(
        {
          summary: "Buy tokens for an organisation's shared balance",
          description:
            'Owners, admins and billing members. As `/api/v1/checkout_session`, for the balance every key of the organisation draws on; by default back to the dashboard’s Members tab.',
          auth: 'session',
          json: checkoutBody,
          example: { price_id: 'price_tokens_1b' },
          answer: checkoutAnswer,
          errors: [401, 403, 404, 409, 422, 429, 501, 502],
        },
        ({ caller, params, json }) => organisationCheckoutFor(caller, parseOrganisationId(params), json),
      ),
    },
  },
})
