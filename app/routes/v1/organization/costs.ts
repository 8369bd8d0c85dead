import { createFileRoute } from '@tanstack/react-router'
import { costsPage, costsQuery } from '~/contracts/admin-usage'
import { costsFor } from '~/server/api/admin/usage'
import { endpoint } from '~/server/http/endpoint'

export const Route = createFileRoute('/v1/organization/costs')({
  server: {
    handlers: {
      GET: endpoint(
        {
          summary: "The organisation's costs",
          description:
            'What the tokens charged cost in US dollars, at the price each key’s tokens were bought at (the smallest pack’s list price where none was bought in dollars), in daily buckets from `start_time` to `end_time` (unix seconds), grouped by `project_id` and `line_item` (the product). OpenAI’s costs shape.',
          group: 'organization',
          auth: 'admin-key',
          query: costsQuery,
          answer: costsPage,
          errors: [401, 403, 422, 429],
        },
        ({ caller, query }) => costsFor(caller, query),
      ),
    },
  },
})
