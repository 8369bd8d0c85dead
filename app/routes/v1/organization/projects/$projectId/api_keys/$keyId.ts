import { createFileRoute } from '@tanstack/react-router'
import { adminProjectKey, adminProjectKeyDeleted, adminProjectKeyUpdate } from '~/contracts/admin-api'
import { pathId } from '~/server/api/admin/params'
import { deleteProjectKeyFor, projectKeyFor, updateProjectKeyFor } from '~/server/api/admin/project-keys'
import { endpoint } from '~/server/http/endpoint'

export const Route = createFileRoute('/v1/organization/projects/$projectId/api_keys/$keyId')({
  server: {
    handlers: {
      GET: endpoint(
        {
          summary: "A project's API key",
          group: 'organization',
          auth: 'admin-key',
          answer: adminProjectKey,
          errors: [401, 403, 404, 422, 429],
        },
        ({ caller, params }) => projectKeyFor(caller, pathId(params, 'projectId'), pathId(params, 'keyId')),
      ),
      POST: endpoint(
        {
          summary: "Replace an API key's spend limits",
          description:
            'The new limits count what the key already consumed in their period; they apply before the old ones are removed. `null` removes every limit.',
          group: 'organization',
          auth: 'admin-key',
          json: adminProjectKeyUpdate,
          answer: adminProjectKey,
          errors: [401, 403, 404, 422, 429],
        },
        ({ caller, params, json }) =>
          updateProjectKeyFor(caller, pathId(params, 'projectId'), pathId(params, 'keyId'), json),
      ),
      DELETE: endpoint(
        {
          summary: 'Revoke an API key',
          description: 'It is refused everywhere from now on (and a `key.revoked` webhook event is sent).',
          group: 'organization',
          auth: 'admin-key',
          answer: adminProjectKeyDeleted,
          errors: [401, 403, 404, 429],
        },
        ({ caller, params }) => deleteProjectKeyFor(caller, pathId(params, 'projectId'), pathId(params, 'keyId')),
      ),
    },
  },
})
