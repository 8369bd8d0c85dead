import { createFileRoute } from '@tanstack/react-router'
import { membersAnswer } from '~/contracts/organisations'
import { membersFor } from '~/server/api/organisations/members'
import { parseOrganisationId } from '~/server/api/organisations/params'
import { endpoint } from '~/server/http/endpoint'

export const Route = createFileRoute('/api/v1/account/organisations/$orgId/members/')({
  server: {
    handlers: {
      GET: endpoint(
        {
          summary: "An organisation's members and their roles",
          description: 'Owners and admins.',
          auth: 'session',
          answer: membersAnswer,
          errors: [401, 403, 404, 429],
        },
        ({ caller, params }) => membersFor(caller, parseOrganisationId(params)),
      ),
    },
  },
})
