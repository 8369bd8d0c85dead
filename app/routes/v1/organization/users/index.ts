import { createFileRoute } from '@tanstack/react-router'
import { adminUser, listOf, listQuery } from '~/contracts/admin-api'
import { adminUsersFor } from '~/server/api/admin/users'
import { endpoint } from '~/server/http/endpoint'

export const Route = createFileRoute('/v1/organization/users/')({
  server: {
    handlers: {
      GET: endpoint(
        {
          summary: "The organisation's members",
          description: 'Oldest first, with their roles (owner, admin, developer, billing, viewer).',
          group: 'organization',
          auth: 'admin-key',
          query: listQuery,
          answer: listOf(adminUser),
          errors: [401, 403, 404, 422, 429],
        },
        ({ caller, query }) => adminUsersFor(caller, query),
      ),
    },
  },
})
