import { createFileRoute } from '@tanstack/react-router'
import * as v from 'valibot'
import { parseLimitId } from '~/server/api/account/spend-limits'
import { parseItemId, parseOrganisationId } from '~/server/api/organisations/params'
import { removeProjectLimitFor } from '~/server/api/organisations/projects'
import { endpoint } from '~/server/http/endpoint'

export const Route = createFileRoute('/api/v1/account/organisations/$orgId/projects/$projectId/limits/$limitId')({
  server: {
    handlers: {
      DELETE: endpoint(
        {
          summary: 'Remove a spend limit of a project',
          description: 'Owners, admins and developers.',
          auth: 'session',
          answer: v.object({ detail: v.string() }),
          errors: [401, 403, 404, 429],
        },
        ({ caller, params }) =>
          removeProjectLimitFor(
            caller,
            parseOrganisationId(params),
            parseItemId(params, 'project'),
            parseLimitId(params),
          ),
      ),
    },
  },
})
