import { createFileRoute } from '@tanstack/react-router'
import { spendLimitAnswer, spendLimitInput, spendLimitsAnswer } from '~/contracts/spend-limits'
import { parseItemId, parseOrganisationId } from '~/server/api/organisations/params'
import { addProjectLimitFor, projectLimitsFor } from '~/server/api/organisations/projects'
import { endpoint } from '~/server/http/endpoint'

export const Route = createFileRoute('/api/v1/account/organisations/$orgId/projects/$projectId/limits/')({
  server: {
    handlers: {
      GET: endpoint(
        {
          summary: "A project's spend limits, with what its keys have counted in the current period",
          description: 'Every member may read them.',
          auth: 'session',
          answer: spendLimitsAnswer,
          errors: [401, 403, 404, 429],
        },
        ({ caller, params }) => projectLimitsFor(caller, parseOrganisationId(params), parseItemId(params, 'project')),
      ),
      POST: endpoint(
        {
          summary: 'Add a spend limit to a project',
          description:
            "Owners, admins and developers. The most the project's keys together may consume in a UTC day, week (from Monday) or month, in tokens or in US dollars at the price the organisation's balance was bought at; each key's own limits still hold. A request that would pass it is refused with 402 until it resets, whichever key sends it. A new limit counts what the project's keys already consumed in the current period.",
          auth: 'session',
          json: spendLimitInput,
          example: { unit: 'usd', amount: 50, period: 'month', alert_percent: 80 },
          answer: spendLimitAnswer,
          errors: [401, 403, 404, 422, 429],
        },
        ({ caller, params, json }) =>
          addProjectLimitFor(caller, parseOrganisationId(params), parseItemId(params, 'project'), json),
      ),
    },
  },
})
