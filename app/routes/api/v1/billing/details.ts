import { createFileRoute } from '@tanstack/react-router'
import { billingDetailsAnswer, billingDetailsBody } from '~/contracts/billing-details'
import { billingDetailsFor, saveBillingDetailsFor } from '~/server/api/payments/invoices'
import { endpoint } from '~/server/http/endpoint'

export const Route = createFileRoute('/api/v1/billing/details')({
  server: {
    handlers: {
      GET: endpoint(
        {
          summary: 'The billing details printed on invoices',
          auth: 'key',
          answer: billingDetailsAnswer,
          errors: [401, 429],
        },
        ({ caller }) => billingDetailsFor(caller),
      ),
      PUT: endpoint(
        {
          summary: 'Set the billing details printed on invoices',
          description:
            'Name and postal address (Latin script, up to six lines) and an optional tax id. Invoices downloaded from now on carry them; an invoice keeps the details it was first downloaded with.',
          auth: 'key',
          json: billingDetailsBody,
          example: { name: 'Example GmbH', address: 'Hauptstraße 1\n10115 Berlin\nGermany', tax_id: 'DE123456789' },
          answer: billingDetailsAnswer,
          errors: [401, 422, 429],
        },
        ({ caller, json }) => saveBillingDetailsFor(caller, json),
      ),
    },
  },
})
