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
            'The password is checked against the password policy here before the identity service sees it. The answer is the same whether or not the address already has an account: a new one gets the verification e-mail, an existing one an e-mail saying someone tried, with links to sign in or reset the password. Then sign in with the password. Errors read `auth/<code>`.',
          auth: 'none',
          json: signUpInput,
          answer: v.object({ detail: v.string() }),
          errors: [400, 422, 429, 502],
        },
        ({ caller, json }) => signUpFor(caller, json),
      ),
    },
  },
})
