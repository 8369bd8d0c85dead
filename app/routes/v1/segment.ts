import { createFileRoute } from '@tanstack/react-router'
import { searchLimits, segmentAnswer, segmentBody } from '~/contracts/search'
import { segmentContent } from '~/server/api/search/segment'
import { endpoint } from '~/server/http/endpoint'
import { answerNaming } from '~/server/http/served-answer'

export const Route = createFileRoute('/v1/segment')({
  server: {
    handlers: {
      POST: endpoint(
        {
          summary: 'Count tokens and split a text into chunks',
          description: `Exact token counts for cl100k_base, o200k_base, p50k_base, r50k_base and gpt2. Chunks of at most \`max_chunk_length\` characters break at paragraphs, then sentences, then spaces. Content up to ${searchLimits.maxSegmentCharacters.toLocaleString('en-US')} characters. Free of charge; works without a key (20 requests a minute per address).`,
          auth: 'key-optional',
          limit: 'segment',
          json: segmentBody,
          example: { content: 'First paragraph.\n\nSecond one. It has two sentences.', return_chunks: true },
          answer: segmentAnswer,
          errors: [401, 403, 413, 415, 422, 429],
        },
        async ({ json }) => {
          const { answer, notApplied } = await segmentContent(json)
          return answerNaming(answer, notApplied)
        },
      ),
    },
  },
})
