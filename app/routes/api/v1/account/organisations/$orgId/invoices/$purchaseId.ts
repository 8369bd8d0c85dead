import { createFileRoute } from '@tanstack/react-router'
import * as v from 'valibot'
import { organisationInvoiceFor } from '~/server/api/organisations/billing'
import { parseOrganisationId } from '~/server/api/organisations/params'
import { endpoint } from '~/server/http/endpoint'

export const Route = createFileRoute('/api/v1/account/organisations/$orgId/invoices/$purchaseId')({
  server: {
    handlers: {
      GET: endpoint(
        {
          summary: "An organisation's invoice as a PDF",
          description: 'Owners, admins and billing members; with the organisation’s billing details.',
          auth: 'session',
          answer: v.unknown(),
          alternatives: [{ mediaType: 'application/pdf', description: 'The invoice document.' }],
          errors: [401, 403, 404, 409, 429],
        },
        async ({ caller, params }) => {
          const { name, pdf } = await organisationInvoiceFor(
            caller,
            parseOrganisationId(params),
            params.purchaseId ?? '',
          )
          return new Response(new Blob([pdf as Uint8Array<ArrayBuffer>]), {
            headers: {
              'content-type': 'application/pdf',
              'content-disposition': `attachment; filename="${name}"`,
              'cache-control': 'no-store',
            },
          })
        },
      ),
    },
  },
})
