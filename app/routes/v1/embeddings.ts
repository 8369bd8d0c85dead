import { createFileRoute } from '@tanstack/react-router'
import { embeddingsAnswer, embeddingsBody, searchLimits } from '~/contracts/search'
import { createEmbeddings } from '~/server/api/search/embeddings'
import { endpoint } from '~/server/http/endpoint'
import { servedResponse } from '~/server/http/served-answer'

export const Route = createFileRoute('/v1/embeddings')({
  server: {
    handlers: {
      POST: endpoint(
        {
          summary: 'Embed texts as vectors',
          description: `Up to ${searchLimits.maxEmbeddingInputs} inputs, each at most the model's input limit in tokens (8,192 for the built-in engine) unless \`truncate\` is set, and together at most ${searchLimits.maxEmbeddingRequestInputLimits} times that limit. \`dimensions\` keeps a prefix of each vector (re-normalised when \`normalized\`). Charged per input token (cl100k_base) before computing: 402 when the key cannot pay. Bodies over ${searchLimits.maxBodyBytes / 1024 / 1024} MiB get 413.`,
          auth: 'key',
          limit: 'embeddings',
          metered: 'embeddings',
          idempotent: true,
          json: embeddingsBody,
          example: {
            model: 'embeddings-v3',
            task: 'text-matching',
            dimensions: 256,
            input: ['Organic skincare for sensitive skin', { text: 'Bio-Hautpflege für empfindliche Haut' }],
          },
          answer: embeddingsAnswer,
          errors: [401, 402, 403, 409, 413, 415, 422, 429, 502, 504],
        },
        async ({ caller, json }) => servedResponse(await createEmbeddings(caller, json)),
      ),
    },
  },
})
