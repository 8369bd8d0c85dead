import { createFileRoute } from '@tanstack/react-router'
import { paginatedTransactionAnswer, paginatedTransactionQuery } from '~/contracts/billing'
import { transactionPageFor } from '~/server/api/billing'
import { endpoint } from '~/server/http/endpoint'

/** Transactions newest first, `num_records` at a time, continued with `cursor` = the previous `next_cursor`. */
export const Route = createFileRoute('/api/v1/billing/paginated_transaction')({
  server: {
    handlers: {
      GET: endpoint(
        {
          summary: 'Transactions, newest first, with a cursor',
          auth: 'key',
          query: paginatedTransactionQuery,
          answer: paginatedTransactionAnswer,
          errors: [401, 422],
        },
        ({ caller, query }) => transactionPageFor(caller, query),
      ),
    },
  },
})
