import { createFileRoute } from '@tanstack/react-router'
import { usageSummaryAnswer, usageSummaryQuery } from '~/contracts/usage-summary'
import { usageSummaryFor } from '~/server/api/usage-summary'
import { endpoint } from '~/server/http/endpoint'

/** Requests, tokens and cost per day, product, model and key over [start, end] (UTC days, default the last 30). */
export const Route = createFileRoute('/api/v1/billing/usage_summary')({
  server: {
    handlers: {
      GET: endpoint(
        {
          summary: 'Requests, tokens and their cost per day, product, model and key',
          description:
            "Requests answered and refused (from the request log) and tokens used net of those given back (from the ledger), each priced at what the keys' paid purchases cost (`price`, null without one). With the account owner's session, every key of the account together, or the one `key_id` names; `balance` is the key's balance against the largest it held in the period or its last purchase, whichever is larger.",
          auth: 'key',
          query: usageSummaryQuery,
          answer: usageSummaryAnswer,
          errors: [401, 422, 429],
        },
        ({ caller, query }) => usageSummaryFor(caller, query),
      ),
    },
  },
})
