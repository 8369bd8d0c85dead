import { createFileRoute } from '@tanstack/react-router'
import * as v from 'valibot'
import { transactionAnswer, transactionQuery } from '~/contracts/billing'
import { transactionFor } from '~/server/api/billing'
import { endpoint } from '~/server/http/endpoint'

/** The key's latest transaction record (null before the first), or one by id; another key's is not found. */
export const Route = createFileRoute('/api/v1/billing/transaction')({
  server: {
    handlers: {
      GET: endpoint(
        {
          summary: 'The latest transaction (null before the first), or one by id',
          auth: 'key',
          query: transactionQuery,
          answer: v.nullable(transactionAnswer),
          errors: [401, 404, 422],
        },
        ({ caller, query }) => transactionFor(caller, query),
      ),
    },
  },
})
