import { createFileRoute } from '@tanstack/react-router'
import { authConfigAnswer } from '~/contracts/account'
import { authConfigFor } from '~/server/api/account/password'
import { endpoint } from '~/server/http/endpoint'

export const Route = createFileRoute('/api/v1/account/config')({
  server: {
    handlers: {
      GET: endpoint(
        {
          summary: "Sign-in settings for the browser: the identity service's web config, providers, password policy",
          auth: 'none',
          answer: authConfigAnswer,
          errors: [],
        },
        () => authConfigFor(),
      ),
    },
  },
})
