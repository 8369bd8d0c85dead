import { createFileRoute } from '@tanstack/react-router'
import { organisationNameInput, organisationSchema, organisationsAnswer } from '~/contracts/organisations'
import { createOrganisationFor, organisationsFor } from '~/server/api/organisations/organisations'
import { endpoint } from '~/server/http/endpoint'

export const Route = createFileRoute('/api/v1/account/organisations/')({
  server: {
    handlers: {
      GET: endpoint(
        {
          summary: 'The organisations the account is in',
          description:
            'Its personal organisation first, with the caller’s role in each and the shared balance (null for the personal one, whose keys keep their own, and for a role that may not see it).',
          auth: 'session',
          answer: organisationsAnswer,
          errors: [401, 429],
        },
        ({ caller }) => organisationsFor(caller),
      ),
      POST: endpoint(
        {
          summary: 'Create an organisation',
          description:
            'The caller becomes its owner. It holds one balance its keys share, bought by its owners, admins and billing members.',
          auth: 'session',
          json: organisationNameInput,
          example: { name: 'Example Ltd' },
          answer: organisationSchema,
          errors: [401, 422, 429],
        },
        ({ caller, json }) => createOrganisationFor(caller, json),
      ),
    },
  },
})
