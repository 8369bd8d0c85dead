import { createFileRoute } from '@tanstack/react-router'
import { invitationInput, invitationSchema, invitationsAnswer } from '~/contracts/organisations'
import { invitationsFor, inviteFor } from '~/server/api/organisations/members'
import { parseOrganisationId } from '~/server/api/organisations/params'
import { endpoint } from '~/server/http/endpoint'

export const Route = createFileRoute('/api/v1/account/organisations/$orgId/invitations/')({
  server: {
    handlers: {
      GET: endpoint(
        {
          summary: "An organisation's invitations",
          description: 'Owners and admins; newest first, with what became of each.',
          auth: 'session',
          answer: invitationsAnswer,
          errors: [401, 403, 404, 429],
        },
        ({ caller, params }) => invitationsFor(caller, parseOrganisationId(params)),
      ),
      POST: endpoint(
        {
          summary: 'Invite someone by e-mail',
          description:
            'Owners and admins (only an owner invites an owner). The address gets a link that works once, for 7 days, for an account signed in with that address (verified).',
          auth: 'session',
          json: invitationInput,
          example: { email: 'colleague@example.com', role: 'viewer' },
          answer: invitationSchema,
          errors: [401, 403, 404, 409, 422, 429],
        },
        ({ caller, params, json }) => inviteFor(caller, parseOrganisationId(params), json),
      ),
    },
  },
})
