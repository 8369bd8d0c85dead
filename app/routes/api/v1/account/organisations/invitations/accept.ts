import { createFileRoute } from '@tanstack/react-router'
import { acceptInvitationInput, organisationSchema } from '~/contracts/organisations'
import { acceptInvitationFor } from '~/server/api/organisations/members'
import { endpoint } from '~/server/http/endpoint'

export const Route = createFileRoute('/api/v1/account/organisations/invitations/accept')({
  server: {
    handlers: {
      POST: endpoint(
        {
          summary: 'Accept an invitation',
          description:
            'With the token of the invitation link, signed in with the invited address (verified by the identity service). Answers the organisation joined.',
          auth: 'session',
          json: acceptInvitationInput,
          answer: organisationSchema,
          errors: [401, 409, 422, 429],
        },
        ({ caller, json }) => acceptInvitationFor(caller, json),
      ),
    },
  },
})
