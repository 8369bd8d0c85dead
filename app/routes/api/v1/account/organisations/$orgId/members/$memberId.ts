import { createFileRoute } from '@tanstack/react-router'
import * as v from 'valibot'
import { memberRoleInput, memberSchema } from '~/contracts/organisations'
import { changeMemberRoleFor, removeMemberFor } from '~/server/api/organisations/members'
import { parseItemId, parseOrganisationId } from '~/server/api/organisations/params'
import { endpoint } from '~/server/http/endpoint'

export const Route = createFileRoute('/api/v1/account/organisations/$orgId/members/$memberId')({
  server: {
    handlers: {
      PATCH: endpoint(
        {
          summary: "Change a member's role",
          description:
            'Owners and admins; only an owner makes someone an owner or changes an owner, and the last owner stays one.',
          auth: 'session',
          json: memberRoleInput,
          example: { role: 'developer' },
          answer: memberSchema,
          errors: [401, 403, 404, 409, 422, 429],
        },
        ({ caller, params, json }) =>
          changeMemberRoleFor(caller, parseOrganisationId(params), parseItemId(params, 'member'), json.role),
      ),
      DELETE: endpoint(
        {
          summary: 'Remove a member, or leave',
          description:
            'Owners and admins remove members (only an owner removes an owner); any member may remove themselves. The last owner cannot leave.',
          auth: 'session',
          answer: v.object({ detail: v.string() }),
          errors: [401, 403, 404, 409, 429],
        },
        ({ caller, params }) => removeMemberFor(caller, parseOrganisationId(params), parseItemId(params, 'member')),
      ),
    },
  },
})
