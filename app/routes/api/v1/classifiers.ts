import { createFileRoute } from '@tanstack/react-router'
import { classifiersAnswer } from '~/contracts/search'
import { classifiersOf } from '~/server/api/search/classifiers'
import { endpoint } from '~/server/http/endpoint'

/** Spec §7: the dashboard's list of the key's classifiers (the same list as GET /v1/classifiers). */
export const Route = createFileRoute('/api/v1/classifiers')({
  server: {
    handlers: {
      GET: endpoint(
        {
          summary: "The key's trained classifiers, newest first",
          auth: 'key',
          answer: classifiersAnswer,
          errors: [401, 429],
        },
        ({ caller }) => classifiersOf(caller, 'dashboard'),
      ),
    },
  },
})
