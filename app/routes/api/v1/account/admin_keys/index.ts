import { createFileRoute } from '@tanstack/react-router'
import { adminKeyInput, adminKeysAnswer, adminKeysQuery, adminKeyWithValueAnswer } from '~/contracts/admin-keys'
import { adminKeysFor, createAdminKeyFor } from '~/server/api/admin/keys'
import { endpoint } from '~/server/http/endpoint'

export const Route = createFileRoute('/api/v1/account/admin_keys/')({
  server: {
    handlers: {
      GET: endpoint(
        {
          summary: "An organisation's Administration API keys",
          description:
            'Those of `organisation_id` (the personal organisation if absent), revoked ones included, their values redacted; for its owners.',
          group: 'account',
          auth: 'session',
          query: adminKeysQuery,
          answer: adminKeysAnswer,
          errors: [401, 403, 404, 422, 429],
        },
        ({ caller, query }) => adminKeysFor(caller, query),
      ),
      POST: endpoint(
        {
          summary: 'Make an Administration API key',
          description:
            'A `sk-admin-…` key for `/v1/organization/…` of `organisation_id` (the personal organisation if absent), acting as the owner who made it. Its `value` is in this answer only; the server keeps its hash.',
          group: 'account',
          auth: 'session',
          json: adminKeyInput,
          answer: adminKeyWithValueAnswer,
          errors: [401, 403, 404, 422, 429],
        },
        ({ caller, json }) => createAdminKeyFor(caller, json),
      ),
    },
  },
})
