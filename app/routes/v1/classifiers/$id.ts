import { createFileRoute } from '@tanstack/react-router'
import { deleteClassifierAnswer } from '~/contracts/search'
import { removeClassifier } from '~/server/api/search/classifiers'
import { endpoint } from '~/server/http/endpoint'

export const Route = createFileRoute('/v1/classifiers/$id')({
  server: {
    handlers: {
      DELETE: endpoint(
        {
          summary: 'Delete one of your classifiers',
          description: "Another key's classifier, public or not, is not found (404).",
          auth: 'key',
          limit: 'classify',
          answer: deleteClassifierAnswer,
          errors: [401, 404, 429],
        },
        ({ caller, params }) => removeClassifier(caller, params.id),
      ),
    },
  },
})
