import { createFileRoute } from '@tanstack/react-router'
import { adminInvite, adminInviteInput, listOf, listQuery } from '~/contracts/admin-api'
import { adminInvitesFor, createAdminInviteFor } from '~/server/api/admin/users'
import { endpoint } from '~/server/http/endpoint'

export const Route = createFileRoute('/v1/organization/invites/')({
  server: {
    handlers: {
      GET: endpoint(
        {
          summary: "The organisation's invitations",
          description: 'Newest first, pending, accepted, revoked or expired.',
          group: 'organization',
          auth: 'admin-key',
          query: listQuery,
          answer: listOf(adminInvite),
          errors: [401, 403, 404, 422, 429],
        },
        ({ caller, query }) => adminInvitesFor(caller, query),
      ),
      POST: endpoint(
        {
          summary: 'Invite someone',
          description:
            'Mails a link that works for 7 days, once, for the invited address. Only an owner invites an owner.',
          group: 'organization',
          auth: 'admin-key',
          json: adminInviteInput,
          answer: adminInvite,
          errors: [401, 403, 404, 409, 422, 429],
        },
        ({ caller, json }) => createAdminInviteFor(caller, json),
      ),
    },
  },
})
