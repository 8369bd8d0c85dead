import { createFileRoute } from '@tanstack/react-router'
import { ticketsAnswer } from '~/contracts/account'
import { ticketsFor } from '~/server/api/account/profile'
import { endpoint } from '~/server/http/endpoint'

/** Spec §7 tickets viewer. */
export const Route = createFileRoute('/api/v1/tickets/viewer')({
  server: {
    handlers: {
      GET: endpoint(
        {
          summary: 'How many requests the signed-in user has sent to sales and support',
          group: 'account',
          auth: 'id-token',
          answer: ticketsAnswer,
          errors: [401, 429],
        },
        ({ caller }) => ticketsFor(caller),
      ),
    },
  },
})
