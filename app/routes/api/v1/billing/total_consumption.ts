import { createFileRoute } from '@tanstack/react-router'
import { totalConsumptionAnswer, totalConsumptionQuery } from '~/contracts/billing'
import { consumptionFor } from '~/server/api/billing'
import { endpoint } from '~/server/http/endpoint'

/** Tokens consumed per product and per day over [start, end] (UTC days, default the last 30). */
export const Route = createFileRoute('/api/v1/billing/total_consumption')({
  server: {
    handlers: {
      GET: endpoint(
        {
          summary: 'Tokens consumed per product and per day',
          auth: 'key',
          query: totalConsumptionQuery,
          answer: totalConsumptionAnswer,
          errors: [401, 422],
        },
        ({ caller, query }) => consumptionFor(caller, query),
      ),
    },
  },
})
