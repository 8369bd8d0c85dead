import { createFileRoute } from '@tanstack/react-router'
import { billingDetailsAnswer, billingDetailsBody } from '~/contracts/billing-details'
import { organisationBillingDetailsFor, saveOrganisationBillingDetailsFor } from '~/server/api/organisations/billing'
import { parseOrganisationId } from '~/server/api/organisations/params'
import { endpoint } from '~/server/http/endpoint'

export const Route = createFileRoute('/api/v1/account/organisations/$orgId/billing_details')({
  server: {
    handlers: {
      GET: endpoint(
        {
          summary: "The billing details on an organisation's invoices",
          description: 'Owners, admins and billing members.',
          auth: 'session',
          answer: billingDetailsAnswer,
          errors: [401, 403, 404, 409, 429],
        },
        ({ caller, params }) => organisationBillingDetailsFor(caller, parseOrganisationId(params)),
      ),
      PUT: endpoint(
        {
          summary: "Set the billing details on an organisation's invoices",
          description: 'Owners, admins and billing members; as `/api/v1/billing/details`.',
          auth: 'session',
          json: billingDetailsBody,
          example: { name: 'Example GmbH', address: 'Hauptstraße 1\n10115 Berlin\nGermany', tax_id: 'DE123456789' },
          answer: billingDetailsAnswer,
          errors: [401, 403, 404, 409, 422, 429],
        },
        ({ caller, params, json }) => saveOrganisationBillingDetailsFor(caller, parseOrganisationId(params), json),
      ),
    },
  },
})
