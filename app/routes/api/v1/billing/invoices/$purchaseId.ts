import { createFileRoute } from '@tanstack/react-router'
import * as v from 'valibot'
import { invoicePdfFor } from '~/server/api/payments/invoices'
import { endpoint } from '~/server/http/endpoint'

/** A paid purchase's invoice, as a PDF. */
export const Route = createFileRoute('/api/v1/billing/invoices/$purchaseId')({
  server: {
    handlers: {
      GET: endpoint(
        {
          summary: "A purchase's invoice as a PDF",
          description:
            'Numbered without gaps, with the billing details set at `/api/v1/billing/details` (fixed on the invoice when first downloaded with them).',
          auth: 'key',
          answer: v.unknown(),
          alternatives: [{ mediaType: 'application/pdf', description: 'The invoice document.' }],
          errors: [401, 404, 429],
        },
        async ({ caller, params }) => {
          const { name, pdf } = await invoicePdfFor(caller, params.purchaseId ?? '')
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
