import { createFileRoute } from '@tanstack/react-router'
import * as v from 'valibot'
import { resetPasswordInput } from '~/contracts/account'
import { resetPasswordFor } from '~/server/api/account/password'
import { endpoint } from '~/server/http/endpoint'

export const Route = createFileRoute('/api/v1/account/reset_password')({
  server: {
    handlers: {
      POST: endpoint(
        {
          summary: 'Set a new password with the one-time code from the reset e-mail',
          description: 'The new password is checked against the password policy first.',
          auth: 'none',
          json: resetPasswordInput,
          answer: v.object({ email: v.string() }),
          errors: [400, 422, 429, 502],
        },
        ({ caller, json }) => resetPasswordFor(caller, json),
      ),
    },
  },
})
