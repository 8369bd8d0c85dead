import { createFileRoute } from '@tanstack/react-router'
import { usageSummaryAnswer, usageSummaryQuery } from '~/contracts/usage-summary'
import { organisationUsageFor } from '~/server/api/organisations/billing'
import { parseOrganisationId } from '~/server/api/organisations/params'
import { endpoint } from '~/server/http/endpoint'

export const Route = createFileRoute('/api/v1/account/organisations/$orgId/usage_summary')({
  server: {
    handlers: {
      GET: endpoint(
        {
          summary: "An organisation's requests, tokens and cost per day, product, model and key",
          description:
            'Every member. As `/api/v1/billing/usage_summary`, over every key of the organisation (or the one `key_id` names), priced at what its shared balance was bought at; `balance` is the shared balance.',
          auth: 'session',
          query: usageSummaryQuery,
          answer: usageSummaryAnswer,
          errors: [401, 404, 422, 429],
        },
        ({ caller, params, query }) => organisationUsageFor(caller, parseOrganisationId(params), query),
      ),
    },
  },
})
