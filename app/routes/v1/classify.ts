import { createFileRoute } from '@tanstack/react-router'
import { classifyAnswer, classifyBody, searchLimits } from '~/contracts/search'
import { classify } from '~/server/api/search/classify'
import { endpoint } from '~/server/http/endpoint'
import { servedResponse } from '~/server/http/served-answer'

export const Route = createFileRoute('/v1/classify')({
  server: {
    handlers: {
      POST: endpoint(
        {
          summary: 'Classify texts, zero-shot or with a trained classifier',
          description: `Give \`labels\` (2 to ${searchLimits.maxZeroShotLabels}) with a \`model\` for zero-shot classification, or a \`classifier_id\` from /v1/train (yours, or another key's public one). Up to ${searchLimits.maxInputs} inputs. Charged for the inputs and the labels.`,
          auth: 'key',
          limit: 'classify',
          metered: 'classifier',
          idempotent: true,
          json: classifyBody,
          example: {
            model: 'embeddings-v3',
            input: ['My order arrived damaged', 'How do I change my password?'],
            labels: ['order shipping delivery', 'account password login'],
          },
          answer: classifyAnswer,
          errors: [401, 402, 403, 404, 409, 413, 415, 422, 429, 502, 504],
        },
        async ({ caller, json }) => servedResponse(await classify(caller, json)),
      ),
    },
  },
})
