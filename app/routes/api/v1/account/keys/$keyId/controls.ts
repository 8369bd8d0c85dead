import { createFileRoute } from '@tanstack/react-router'
import { keyControlsAnswer, keyControlsInput } from '~/contracts/key-controls'
import { parseKeyId } from '~/server/api/account/keys'
import { keyControlsFor, setKeyControlsFor } from '~/server/api/account/key-controls'
import { endpoint } from '~/server/http/endpoint'

export const Route = createFileRoute('/api/v1/account/keys/$keyId/controls')({
  server: {
    handlers: {
      GET: endpoint(
        {
          summary: "A key's controls: spending caps, products and models, expiry, client address ranges",
          auth: 'session',
          answer: keyControlsAnswer,
          errors: [401, 404, 429],
        },
        ({ caller, params }) => keyControlsFor(caller, parseKeyId(params)),
      ),
      PUT: endpoint(
        {
          summary: "Set a key's controls",
          description:
            'Replaces every control; null means no limit. Caps are tokens per UTC day and month; a request past one is refused with 402 until it resets. A revoked key cannot be changed.',
          auth: 'session',
          json: keyControlsInput,
          answer: keyControlsAnswer,
          errors: [401, 404, 422, 429],
        },
        ({ caller, params, json }) => setKeyControlsFor(caller, parseKeyId(params), json),
      ),
    },
  },
})
