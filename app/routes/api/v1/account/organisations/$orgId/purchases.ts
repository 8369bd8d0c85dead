import { createFileRoute } from '@tanstack/react-router'
import { purchasesAnswer } from '~/contracts/payments'
import { organisationPurchasesFor } from '~/server/api/organisations/billing'
import { parseOrganisationId } from '~/server/api/organisations/params'
import { endpoint } from '~/server/http/endpoint'

export const Route = createFileRoute('/api/v1/account/organisations/$orgId/purchases')({
  server: {
    handlers: {
      GET: endpoint(
        {
          summary: "An organisation's purchases",
          description: 'Owners, admins and billing members; newest first, with what a receipt shows.',
          auth: 'session',
          answer: purchasesAnswer,
          errors: [401, 403, 404, 409, 429],
        },
        ({ caller, params }) => organisationPurchasesFor(caller, parseOrganisationId(params)),
      ),
    },
  },
})
