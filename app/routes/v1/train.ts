import { createFileRoute } from '@tanstack/react-router'
import { searchLimits, trainAnswer, trainBody } from '~/contracts/search'
import { train } from '~/server/api/search/train'
import { endpoint } from '~/server/http/endpoint'
import { servedResponse } from '~/server/http/served-answer'

export const Route = createFileRoute('/v1/train')({
  server: {
    handlers: {
      POST: endpoint(
        {
          summary: 'Train a classifier on labelled texts',
          description: `A new classifier (\`model\`) or further training of one of yours (\`classifier_id\`): logistic regression on the texts' embeddings for \`num_iters\` epochs. At most ${searchLimits.maxClasses} classes, ${searchLimits.maxClassifiersPerKey} classifiers per key and ${searchLimits.maxInputs} examples per request. 409 when another request trained the same classifier meanwhile. Charged for the texts.`,
          auth: 'key',
          limit: 'classify',
          metered: 'classifier',
          idempotent: true,
          json: trainBody,
          example: {
            model: 'embeddings-v3',
            access: 'private',
            num_iters: 10,
            input: [
              { text: 'My parcel never arrived', label: 'shipping' },
              { text: 'I forgot my password', label: 'account' },
            ],
          },
          answer: trainAnswer,
          errors: [401, 402, 403, 404, 409, 413, 415, 422, 429, 502, 504],
        },
        async ({ caller, json }) => servedResponse(await train(caller, json)),
      ),
    },
  },
})
