import { createFileRoute } from '@tanstack/react-router'
import { adminInvite, adminInviteDeleted } from '~/contracts/admin-api'
import { pathId } from '~/server/api/admin/params'
import { adminInviteFor, deleteAdminInviteFor } from '~/server/api/admin/users'
import { endpoint } from '~/server/http/endpoint'

export const Route = createFileRoute('/v1/organization/invites/$inviteId')({
  server: {
    handlers: {
      GET: endpoint(
        {
          summary: 'An invitation',
          group: 'organization',
          auth: 'admin-key',
          answer: adminInvite,
          errors: [401, 403, 404, 422, 429],
        },
        ({ caller, params }) => adminInviteFor(caller, pathId(params, 'inviteId')),
      ),
      DELETE: endpoint(
        {
          summary: 'Revoke an invitation',
          description: 'Its link stops working; an accepted one cannot be revoked (409).',
          group: 'organization',
          auth: 'admin-key',
          answer: adminInviteDeleted,
          errors: [401, 403, 404, 409, 429],
        },
        ({ caller, params }) => deleteAdminInviteFor(caller, pathId(params, 'inviteId')),
      ),
    },
  },
})
