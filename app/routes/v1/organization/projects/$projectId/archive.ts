import { createFileRoute } from '@tanstack/react-router'
import { adminProject } from '~/contracts/admin-api'
import { pathId } from '~/server/api/admin/params'
import { modifyAdminProjectFor } from '~/server/api/admin/projects'
import { endpoint } from '~/server/http/endpoint'

export const Route = createFileRoute('/v1/organization/projects/$projectId/archive')({
  server: {
    handlers: {
      POST: endpoint(
        {
          summary: 'Archive a project',
          description: 'Its keys keep working; no new key joins it. Kept, as keys and their history name it.',
          group: 'organization',
          auth: 'admin-key',
          answer: adminProject,
          errors: [401, 403, 404, 429],
        },
        ({ caller, params }) => modifyAdminProjectFor(caller, pathId(params, 'projectId'), { archived: true }),
      ),
    },
  },
})
