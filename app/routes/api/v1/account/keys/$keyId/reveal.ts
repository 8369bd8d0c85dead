import { createFileRoute } from '@tanstack/react-router'
import { revealedKeyAnswer } from '~/contracts/account'
import { parseKeyId, revealKeyFor } from '~/server/api/account/keys'
import { endpoint } from '~/server/http/endpoint'

export const Route = createFileRoute('/api/v1/account/keys/$keyId/reveal')({
  server: {
    handlers: {
      POST: endpoint(
        {
          summary: 'The key itself, to use it on this device',
          auth: 'session',
          answer: revealedKeyAnswer,
          errors: [401, 404, 409, 429],
        },
        ({ caller, params }) => revealKeyFor(caller, parseKeyId(params)),
      ),
    },
  },
})
