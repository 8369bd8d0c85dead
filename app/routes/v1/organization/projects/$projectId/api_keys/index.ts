import { createFileRoute } from '@tanstack/react-router'
import {
  adminProjectKey,
  adminProjectKeyInput,
  adminProjectKeyWithValue,
  listOf,
  listQuery,
} from '~/contracts/admin-api'
import { pathId } from '~/server/api/admin/params'
import { createProjectKeyFor, projectKeysFor } from '~/server/api/admin/project-keys'
import { endpoint } from '~/server/http/endpoint'

export const Route = createFileRoute('/v1/organization/projects/$projectId/api_keys/')({
  server: {
    handlers: {
      GET: endpoint(
        {
          summary: "A project's API keys",
          description:
            'Oldest first, revoked ones included (`owner_project_access: "inactive"`), each with its spend limits.',
          group: 'organization',
          auth: 'admin-key',
          query: listQuery,
          answer: listOf(adminProjectKey),
          errors: [401, 403, 404, 422, 429],
        },
        ({ caller, params, query }) => projectKeysFor(caller, pathId(params, 'projectId'), query),
      ),
      POST: endpoint(
        {
          summary: 'Make an API key in a project',
          description:
            'It spends the organisation’s shared balance. `limits` sets the most it may consume in each UTC `period` (day, week from Monday, month), in `tokens`, in `amount_usd` at the price its tokens were bought at, or both; past one, its requests are refused with 402 `insufficient_quota` and a `limit.reached` webhook event is sent. The key`s `value` is in this answer only.',
          group: 'organization',
          auth: 'admin-key',
          json: adminProjectKeyInput,
          answer: adminProjectKeyWithValue,
          errors: [401, 403, 404, 409, 422, 429],
        },
        ({ caller, params, json }) => createProjectKeyFor(caller, pathId(params, 'projectId'), json),
      ),
    },
  },
})
