import { createFileRoute } from '@tanstack/react-router'
import { apiKeyAnswer, captchaForm } from '~/contracts/keys'
import { issueKeyFor } from '~/server/api/keys'
import { endpoint } from '~/server/http/endpoint'

/** Spec §7 key service: a new key with the free pack. A 429 here sends the dashboard to /empty. */
export const Route = createFileRoute('/api/v1/api_key/trial')({
  server: {
    handlers: {
      POST: endpoint(
        {
          summary: 'Issue a trial key with the free pack of 10,000,000 tokens',
          description: 'Rate limited per client address; on 429 ask for an empty key instead.',
          auth: 'none',
          form: captchaForm,
          answer: apiKeyAnswer,
          errors: [400, 415, 422, 429],
        },
        ({ caller, form }) => issueKeyFor(caller, 'trial', form),
      ),
    },
  },
})
