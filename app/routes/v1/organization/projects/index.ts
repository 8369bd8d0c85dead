import { createFileRoute } from '@tanstack/react-router'
import { adminProject, adminProjectInput, listOf, projectsListQuery } from '~/contracts/admin-api'
import { adminProjectsFor, createAdminProjectFor } from '~/server/api/admin/projects'
import { endpoint } from '~/server/http/endpoint'

export const Route = createFileRoute('/v1/organization/projects/')({
  server: {
    handlers: {
      GET: endpoint(
        {
          summary: "The organisation's projects",
          description: 'Oldest first; archived ones only with `include_archived=true`.',
          group: 'organization',
          auth: 'admin-key',
          query: projectsListQuery,
          answer: listOf(adminProject),
          errors: [401, 403, 404, 422, 429],
        },
        ({ caller, query }) => adminProjectsFor(caller, query),
      ),
      POST: endpoint(
        {
          summary: 'Make a project',
          group: 'organization',
          auth: 'admin-key',
          json: adminProjectInput,
          answer: adminProject,
          errors: [401, 403, 404, 422, 429],
        },
        ({ caller, json }) => createAdminProjectFor(caller, json),
      ),
    },
  },
})
