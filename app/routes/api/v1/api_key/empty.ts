import { createFileRoute } from '@tanstack/react-router'
import { apiKeyAnswer, captchaForm } from '~/contracts/keys'
import { issueKeyFor } from '~/server/api/keys'
import { endpoint } from '~/server/http/endpoint'

/** Spec §7 key service: a new key with no tokens, the fallback when trial keys are rate limited. */
export const Route = createFileRoute('/api/v1/api_key/empty')({
  server: {
    handlers: {
      POST: endpoint(
        {
          summary: 'Issue a key with no tokens',
          auth: 'none',
          form: captchaForm,
          answer: apiKeyAnswer,
          errors: [400, 415, 422, 429],
        },
        ({ caller, form }) => issueKeyFor(caller, 'empty', form),
      ),
    },
  },
})
