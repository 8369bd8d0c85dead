import { createFileRoute } from '@tanstack/react-router'
import { classifiersAnswer } from '~/contracts/search'
import { classifiersOf } from '~/server/api/search/classifiers'
import { endpoint } from '~/server/http/endpoint'

export const Route = createFileRoute('/v1/classifiers/')({
  server: {
    handlers: {
      GET: endpoint(
        {
          summary: "The key's trained classifiers, newest first",
          auth: 'key',
          limit: 'classify',
          answer: classifiersAnswer,
          errors: [401, 429],
        },
        ({ caller }) => classifiersOf(caller, 'classify'),
      ),
    },
  },
})
