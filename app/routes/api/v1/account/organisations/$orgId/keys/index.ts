import { createFileRoute } from '@tanstack/react-router'
import * as v from 'valibot'
import { organisationKeyInput, organisationKeySchema, organisationKeysAnswer } from '~/contracts/organisations'
import { createOrganisationKeyFor, organisationKeysFor } from '~/server/api/organisations/keys'
import { parseOrganisationId } from '~/server/api/organisations/params'
import { endpoint } from '~/server/http/endpoint'

export const Route = createFileRoute('/api/v1/account/organisations/$orgId/keys/')({
  server: {
    handlers: {
      GET: endpoint(
        {
          summary: "An organisation's keys",
          description: 'Owners, admins and developers; revoked ones too.',
          auth: 'session',
          answer: organisationKeysAnswer,
          errors: [401, 403, 404, 429],
        },
        ({ caller, params }) => organisationKeysFor(caller, parseOrganisationId(params)),
      ),
      POST: endpoint(
        {
          summary: 'Create a key in an organisation',
          description:
            "Owners, admins and developers, in the organisation or one of its live projects (`project_id`). It spends the organisation's shared balance; in the personal organisation it is an account key with its own balance. Needs a captcha for `new_key`.",
          auth: 'session',
          json: organisationKeyInput,
          answer: v.object({ api_key: v.string(), key: organisationKeySchema }),
          errors: [400, 401, 403, 404, 409, 422, 429],
        },
        ({ caller, params, json }) => createOrganisationKeyFor(caller, parseOrganisationId(params), json),
      ),
    },
  },
})
