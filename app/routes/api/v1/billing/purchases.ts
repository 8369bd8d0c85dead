import { createFileRoute } from '@tanstack/react-router'
import { purchasesAnswer } from '~/contracts/payments'
import { purchasesFor } from '~/server/api/payments/purchases'
import { endpoint } from '~/server/http/endpoint'

export const Route = createFileRoute('/api/v1/billing/purchases')({
  server: {
    handlers: {
      GET: endpoint(
        {
          summary: "The key's purchases, newest first",
          description: 'Checkouts and auto-recharges with their amount, card and receipt; the latest 50.',
          auth: 'key',
          answer: purchasesAnswer,
          errors: [401, 429],
        },
        ({ caller }) => purchasesFor(caller),
      ),
    },
  },
})
