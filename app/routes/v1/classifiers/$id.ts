import { createFileRoute } from '@tanstack/react-router'
import { classifierItem, deleteClassifierAnswer, renameClassifierBody } from '~/contracts/search'
import { nameClassifier, removeClassifier } from '~/server/api/search/classifiers'
import { endpoint } from '~/server/http/endpoint'

export const Route = createFileRoute('/v1/classifiers/$id')({
  server: {
    handlers: {
      PATCH: endpoint(
        {
          summary: 'Name one of your classifiers',
          description:
            "The name is kept with the classifier, so every device and the dashboard show it; null or empty removes it. Another key's classifier is not found (404).",
          auth: 'key',
          limit: 'classify',
          json: renameClassifierBody,
          example: { name: 'Support tickets' },
          answer: classifierItem,
          errors: [401, 404, 422, 429],
        },
        ({ caller, params, json }) => nameClassifier(caller, params.id, json.name),
      ),
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
