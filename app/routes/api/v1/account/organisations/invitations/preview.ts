import { createFileRoute } from '@tanstack/react-router'
import { acceptInvitationInput, invitationPreviewSchema } from '~/contracts/organisations'
import { previewInvitationFor } from '~/server/api/organisations/members'
import { endpoint } from '~/server/http/endpoint'

export const Route = createFileRoute('/api/v1/account/organisations/invitations/preview')({
  server: {
    handlers: {
      POST: endpoint(
        {
          summary: 'Read an invitation',
          description:
            'With the token of the invitation link: the organisation it invites to, the role and the invited address, so its holder can decide before accepting. Refused as accepting would be when the link is no longer live.',
          auth: 'session',
          json: acceptInvitationInput,
          answer: invitationPreviewSchema,
          errors: [401, 409, 422, 429],
        },
        ({ caller, json }) => previewInvitationFor(caller, json),
      ),
    },
  },
})
