import { createFileRoute } from '@tanstack/react-router'
import * as v from 'valibot'
import { signUpInput } from '~/contracts/account'
import { signUpFor } from '~/server/api/account/password'
import { endpoint } from '~/server/http/endpoint'

export const Route = createFileRoute('/api/v1/account/sign_up')({
  server: {
    handlers: {
      POST: endpoint(
        {
          summary: 'Create an account with e-mail and password',
          description:
            'The password is checked against the password policy here before the identity service sees it; then sign in with it. Errors read `auth/<code>`.',
          auth: 'none',
          json: signUpInput,
          answer: v.object({ uid: v.string() }),
          errors: [400, 422, 429, 502],
        },
        ({ caller, json }) => signUpFor(caller, json),
      ),
    },
  },
})
