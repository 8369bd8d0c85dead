import { createFileRoute } from '@tanstack/react-router'
import { adminProject, adminProjectChangeInput } from '~/contracts/admin-api'
import { pathId } from '~/server/api/admin/params'
import { adminProjectFor, modifyAdminProjectFor } from '~/server/api/admin/projects'
import { endpoint } from '~/server/http/endpoint'

export const Route = createFileRoute('/v1/organization/projects/$projectId/')({
  server: {
    handlers: {
      GET: endpoint(
        {
          summary: 'A project',
          group: 'organization',
          auth: 'admin-key',
          answer: adminProject,
          errors: [401, 403, 404, 422, 429],
        },
        ({ caller, params }) => adminProjectFor(caller, pathId(params, 'projectId')),
      ),
      POST: endpoint(
        {
          summary: 'Rename a project',
          group: 'organization',
          auth: 'admin-key',
          json: adminProjectChangeInput,
          answer: adminProject,
          errors: [401, 403, 404, 422, 429],
        },
        ({ caller, params, json }) => modifyAdminProjectFor(caller, pathId(params, 'projectId'), json),
      ),
    },
  },
})
