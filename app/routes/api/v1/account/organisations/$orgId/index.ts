import { createFileRoute } from '@tanstack/react-router'
import * as v from 'valibot'
import { organisationNameInput, organisationSchema } from '~/contracts/organisations'
import { deleteOrganisationFor, organisationFor, renameOrganisationFor } from '~/server/api/organisations/organisations'
import { parseOrganisationId } from '~/server/api/organisations/params'
import { endpoint } from '~/server/http/endpoint'

export const Route = createFileRoute('/api/v1/account/organisations/$orgId/')({
  server: {
    handlers: {
      GET: endpoint(
        {
          summary: 'One organisation the account is in',
          auth: 'session',
          answer: organisationSchema,
          errors: [401, 404, 429],
        },
        ({ caller, params }) => organisationFor(caller, parseOrganisationId(params)),
      ),
      PATCH: endpoint(
        {
          summary: 'Rename an organisation',
          description: 'Owners and admins.',
          auth: 'session',
          json: organisationNameInput,
          answer: organisationSchema,
          errors: [401, 403, 404, 422, 429],
        },
        ({ caller, params, json }) => renameOrganisationFor(caller, parseOrganisationId(params), json),
      ),
      DELETE: endpoint(
        {
          summary: 'Delete an organisation',
          description:
            'Owners only, and not the personal one. Its keys are revoked and its invitations end; its ledger, purchases and invoices stay as history.',
          auth: 'session',
          answer: v.object({ detail: v.string() }),
          errors: [401, 403, 404, 409, 429],
        },
        ({ caller, params }) => deleteOrganisationFor(caller, parseOrganisationId(params)),
      ),
    },
  },
})
