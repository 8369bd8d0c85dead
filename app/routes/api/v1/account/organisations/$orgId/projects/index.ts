import { createFileRoute } from '@tanstack/react-router'
import { projectInput, projectSchema, projectsAnswer } from '~/contracts/organisations'
import { parseOrganisationId } from '~/server/api/organisations/params'
import { createProjectFor, projectsFor } from '~/server/api/organisations/projects'
import { endpoint } from '~/server/http/endpoint'

export const Route = createFileRoute('/api/v1/account/organisations/$orgId/projects/')({
  server: {
    handlers: {
      GET: endpoint(
        {
          summary: "An organisation's projects",
          description: 'Every member; archived ones too.',
          auth: 'session',
          answer: projectsAnswer,
          errors: [401, 404, 429],
        },
        ({ caller, params }) => projectsFor(caller, parseOrganisationId(params)),
      ),
      POST: endpoint(
        {
          summary: 'Create a project',
          description: 'Owners, admins and developers. A project groups keys.',
          auth: 'session',
          json: projectInput,
          example: { name: 'Search backend' },
          answer: projectSchema,
          errors: [401, 403, 404, 422, 429],
        },
        ({ caller, params, json }) => createProjectFor(caller, parseOrganisationId(params), json),
      ),
    },
  },
})
