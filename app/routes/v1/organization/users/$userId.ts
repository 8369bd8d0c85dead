import { createFileRoute } from '@tanstack/react-router'
import { adminUser, adminUserDeleted, adminUserRoleInput } from '~/contracts/admin-api'
import { pathId } from '~/server/api/admin/params'
import { adminUserFor, deleteAdminUserFor, modifyAdminUserFor } from '~/server/api/admin/users'
import { endpoint } from '~/server/http/endpoint'

export const Route = createFileRoute('/v1/organization/users/$userId')({
  server: {
    handlers: {
      GET: endpoint(
        {
          summary: 'A member',
          group: 'organization',
          auth: 'admin-key',
          answer: adminUser,
          errors: [401, 403, 404, 422, 429],
        },
        ({ caller, params }) => adminUserFor(caller, pathId(params, 'userId')),
      ),
      POST: endpoint(
        {
          summary: "Change a member's role",
          description: 'Only an owner makes or unmakes owners; the last owner stays one.',
          group: 'organization',
          auth: 'admin-key',
          json: adminUserRoleInput,
          answer: adminUser,
          errors: [401, 403, 404, 409, 422, 429],
        },
        ({ caller, params, json }) => modifyAdminUserFor(caller, pathId(params, 'userId'), json.role),
      ),
      DELETE: endpoint(
        {
          summary: 'Remove a member',
          description: 'Their access ends at once; the keys are the organisation’s and keep working.',
          group: 'organization',
          auth: 'admin-key',
          answer: adminUserDeleted,
          errors: [401, 403, 404, 409, 429],
        },
        ({ caller, params }) => deleteAdminUserFor(caller, pathId(params, 'userId')),
      ),
    },
  },
})
