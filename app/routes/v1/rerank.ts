import { createFileRoute } from '@tanstack/react-router'
import { rerankAnswer, rerankBody, searchLimits } from '~/contracts/search'
import { rerank } from '~/server/api/search/rerank'
import { endpoint } from '~/server/http/endpoint'
import { servedResponse } from '~/server/http/served-answer'

export const Route = createFileRoute('/v1/rerank')({
  server: {
    handlers: {
      POST: endpoint(
        {
          summary: 'Rank documents by relevance to a query',
          description: `Up to ${searchLimits.maxInputs} documents; results are sorted by \`relevance_score\` in [0, 1], the best \`top_n\` (default all). Charged for the query and every document's tokens.`,
          auth: 'key',
          limit: 'rerank',
          metered: 'reranker',
          idempotent: true,
          json: rerankBody,
          example: {
            model: 'reranker-v3',
            query: 'capital of France',
            documents: ['Berlin is the capital of Germany', 'Paris is the capital of France'],
            top_n: 1,
          },
          answer: rerankAnswer,
          errors: [401, 402, 403, 409, 413, 415, 422, 429, 502, 504],
        },
        async ({ caller, json }) => servedResponse(await rerank(caller, json)),
      ),
    },
  },
})
