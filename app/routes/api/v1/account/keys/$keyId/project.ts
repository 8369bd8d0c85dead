import { createFileRoute } from '@tanstack/react-router'
import { keyProjectInput, organisationKeySchema } from '~/contracts/organisations'
import { parseKeyId } from '~/server/api/account/keys'
import { setKeyProjectFor } from '~/server/api/organisations/keys'
import { endpoint } from '~/server/http/endpoint'

export const Route = createFileRoute('/api/v1/account/keys/$keyId/project')({
  server: {
    handlers: {
      PUT: endpoint(
        {
          summary: 'Move a key into a project of its organisation, or out of any',
          description: 'Owners, admins and developers of the key’s organisation.',
          auth: 'session',
          json: keyProjectInput,
          answer: organisationKeySchema,
          errors: [401, 403, 404, 409, 422, 429],
        },
        ({ caller, params, json }) => setKeyProjectFor(caller, parseKeyId(params), json.project_id),
      ),
    },
  },
})
