import { createFileRoute } from '@tanstack/react-router'
import { userAnswerSchema, userInfoInput } from '~/contracts/account'
import { getUserInfoFor } from '~/server/api/account/profile'
import { endpoint } from '~/server/http/endpoint'

/** Spec §7 account service. */
export const Route = createFileRoute('/api/v1/account/getUserInfo')({
  server: {
    handlers: {
      POST: endpoint(
        {
          summary: 'The signed-in user: made on the first call, then as stored',
          description:
            'The first call stores the user from the ID token and the profile sent; later calls answer the stored profile, which the dashboard edits, so it follows the user to every device.',
          auth: 'id-token',
          json: userInfoInput,
          answer: userAnswerSchema,
          errors: [401, 422, 429],
        },
        ({ caller, json }) => getUserInfoFor(caller, json),
      ),
    },
  },
})
