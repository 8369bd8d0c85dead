import { createFileRoute } from '@tanstack/react-router'
import { captchaForm, revokedAnswer } from '~/contracts/keys'
import { revokeFor } from '~/server/api/keys'
import { endpoint } from '~/server/http/endpoint'

/** Revokes the bearer key (captcha required). Its balance stays in the ledger but can no longer be spent. */
export const Route = createFileRoute('/api/v1/api_key/')({
  server: {
    handlers: {
      DELETE: endpoint(
        {
          summary: 'Revoke the bearer key',
          description: 'The balance stays in the ledger but can no longer be spent. Needs a solved captcha.',
          auth: 'key',
          form: captchaForm,
          answer: revokedAnswer,
          errors: [400, 401, 415, 422],
        },
        ({ caller, form }) => revokeFor(caller, form),
      ),
    },
  },
})
