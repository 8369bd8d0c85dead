import { createFileRoute } from '@tanstack/react-router'
import { projectChangeInput, projectSchema } from '~/contracts/organisations'
import { parseItemId, parseOrganisationId } from '~/server/api/organisations/params'
import { archiveProjectFor, changeProjectFor } from '~/server/api/organisations/projects'
import { endpoint } from '~/server/http/endpoint'

export const Route = createFileRoute('/api/v1/account/organisations/$orgId/projects/$projectId/')({
  server: {
    handlers: {
      PATCH: endpoint(
        {
          summary: 'Rename, archive or bring back a project',
          description: 'Owners, admins and developers. An archived project’s keys keep working; no new key joins it.',
          auth: 'session',
          json: projectChangeInput,
          example: { name: 'Search backend', archived: false },
          answer: projectSchema,
          errors: [401, 403, 404, 422, 429],
        },
        ({ caller, params, json }) =>
          changeProjectFor(caller, parseOrganisationId(params), parseItemId(params, 'project'), json),
      ),
      DELETE: endpoint(
        {
          summary: 'Archive a project',
          description: 'Owners, admins and developers. Kept, since its keys and their history name it.',
          auth: 'session',
          answer: projectSchema,
          errors: [401, 403, 404, 429],
        },
        ({ caller, params }) => archiveProjectFor(caller, parseOrganisationId(params), parseItemId(params, 'project')),
      ),
    },
  },
})
