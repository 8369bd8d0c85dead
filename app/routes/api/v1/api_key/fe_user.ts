import { createFileRoute } from '@tanstack/react-router'
import { keyInfoAnswer, keyInfoQuery } from '~/contracts/keys'
import { keyInfoFor } from '~/server/api/keys'
import { endpoint } from '~/server/http/endpoint'

/** Spec §3 key info for the key in the `api_key` query (or the bearer key). */
export const Route = createFileRoute('/api/v1/api_key/fe_user')({
  server: {
    handlers: {
      GET: endpoint(
        {
          summary: 'Key info: e-mail, wallet and metadata',
          description:
            'The key goes in the `Authorization: Bearer` header or, for browser links, in the `api_key` query parameter.',
          auth: 'key-or-query',
          query: keyInfoQuery,
          answer: keyInfoAnswer,
          errors: [401, 422, 429],
        },
        ({ caller }) => keyInfoFor(caller),
      ),
    },
  },
})
