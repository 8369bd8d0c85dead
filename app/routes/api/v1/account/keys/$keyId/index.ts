import { createFileRoute } from '@tanstack/react-router'
import * as v from 'valibot'
import { accountKeySchema, renameKeyInput } from '~/contracts/account'
import { parseKeyId, renameKeyFor, revokeKeyFor } from '~/server/api/account/keys'
import { endpoint } from '~/server/http/endpoint'

export const Route = createFileRoute('/api/v1/account/keys/$keyId/')({
  server: {
    handlers: {
      PATCH: endpoint(
        {
          summary: 'Name a key of the account',
          auth: 'session',
          json: renameKeyInput,
          answer: accountKeySchema,
          errors: [401, 404, 422, 429],
        },
        ({ caller, params, json }) => renameKeyFor(caller, parseKeyId(params), json.name),
      ),
      DELETE: endpoint(
        {
          summary: 'Revoke a key of the account',
          description: 'The key stops working everywhere; its history stays.',
          auth: 'session',
          answer: v.object({ detail: v.string() }),
          errors: [401, 404, 429],
        },
        ({ caller, params }) => revokeKeyFor(caller, parseKeyId(params)),
      ),
    },
  },
})
