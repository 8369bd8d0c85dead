import { createFileRoute } from '@tanstack/react-router'
import { invitationSchema } from '~/contracts/organisations'
import { revokeInvitationFor } from '~/server/api/organisations/members'
import { parseItemId, parseOrganisationId } from '~/server/api/organisations/params'
import { endpoint } from '~/server/http/endpoint'

export const Route = createFileRoute('/api/v1/account/organisations/$orgId/invitations/$invitationId')({
  server: {
    handlers: {
      DELETE: endpoint(
        {
          summary: 'Revoke an invitation',
          description: 'Owners and admins; its link stops working.',
          auth: 'session',
          answer: invitationSchema,
          errors: [401, 403, 404, 409, 429],
        },
        ({ caller, params }) =>
          revokeInvitationFor(caller, parseOrganisationId(params), parseItemId(params, 'invitation')),
      ),
    },
  },
})
