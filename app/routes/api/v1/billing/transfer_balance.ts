import { createFileRoute } from '@tanstack/react-router'
import { transferAnswer, transferBalanceQuery } from '~/contracts/billing'
import { captchaForm } from '~/contracts/keys'
import { transferFor } from '~/server/api/billing'
import { endpoint } from '~/server/http/endpoint'

/** Moves the bearer key's whole balance to `receiver_key` and revokes the bearer key, atomically. */
export const Route = createFileRoute('/api/v1/billing/transfer_balance')({
  server: {
    handlers: {
      POST: endpoint(
        {
          summary: 'Move the whole balance to another key and revoke this one',
          description:
            "Atomic: the receiver gets the whole balance and the bearer key is revoked in one step. Needs a solved captcha. Judged by the bearer key's controls as a spend of the whole balance: refused when the key has expired, is used from outside its address ranges, is limited to some products or models, or holds more than a spending cap leaves.",
          auth: 'key',
          query: transferBalanceQuery,
          form: captchaForm,
          answer: transferAnswer,
          errors: [400, 401, 403, 404, 415, 422],
        },
        ({ caller, query, form }) => transferFor(caller, { ...query, ...form }),
      ),
    },
  },
})
