import { createFileRoute } from '@tanstack/react-router'
import { accountKeySchema, claimKeyInput } from '~/contracts/account'
import { claimKeyFor } from '~/server/api/account/keys'
import { endpoint } from '~/server/http/endpoint'

export const Route = createFileRoute('/api/v1/account/keys/claim')({
  server: {
    handlers: {
      POST: endpoint(
        {
          summary: 'Move a key got before sign-in into the account',
          description: "Needs a captcha for `claim_key`. Another account's key is refused with 403.",
          auth: 'session',
          json: claimKeyInput,
          answer: accountKeySchema,
          errors: [400, 401, 403, 422, 429],
        },
        ({ caller, json }) => claimKeyFor(caller, json),
      ),
    },
  },
})
