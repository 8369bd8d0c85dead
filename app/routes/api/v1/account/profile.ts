import { createFileRoute } from '@tanstack/react-router'
import { profileInput, userAnswerSchema } from '~/contracts/account'
import { updateProfileFor } from '~/server/api/account/profile'
import { endpoint } from '~/server/http/endpoint'

export const Route = createFileRoute('/api/v1/account/profile')({
  server: {
    handlers: {
      PATCH: endpoint(
        {
          summary: 'Change the profile and preferences',
          description:
            'Fields left out stay as they are; `preferences` is merged into the stored ones. `notificationEmail` is where balance alerts go by default.',
          auth: 'session',
          json: profileInput,
          answer: userAnswerSchema,
          errors: [401, 422, 429],
        },
        ({ caller, json }) => updateProfileFor(caller, json),
      ),
    },
  },
})
