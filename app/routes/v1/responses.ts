import { createFileRoute } from '@tanstack/react-router'
import { responseEvent, responseEventTypes, responseObject, responsesBody } from '~/contracts/responses'
import { endpoint } from '~/server/http/endpoint'
import { responsesAnswer } from '~/server/http/responses-answers'

const streamed = responseEventTypes.filter((type) => type !== 'error' && type !== 'response.failed')

export const Route = createFileRoute('/v1/responses')({
  server: {
    handlers: {
      POST: endpoint(
        {
          summary: 'Deep search as OpenAI’s Responses API',
          description: `Deep search (model \`deepsearch-v1\`) in the shape of OpenAI's Responses API, for clients that call it (the \`openai\` SDK's \`responses.create\`, the AI SDK's default \`openai(…)\` model). \`input\` (a text or messages, text parts only) and \`instructions\` are the conversation; \`reasoning.effort\`, \`max_output_tokens\` and \`text.format\` stand for \`reasoning_effort\`, \`max_tokens\` and \`response_format\` of /v1/chat/completions, whose deep-search options (\`budget_tokens\`, \`max_attempts\`, \`only_hostnames\`, …) it takes too, and which it runs, meters and limits alike. \`output\` holds a \`reasoning\` item (the agent's steps as \`summary_text\`) and a \`message\` whose \`output_text\` carries the citations as \`url_citation\` annotations (\`url\`, \`title\`, \`start_index\`, \`end_index\`, \`exactQuote\`, \`dateTime\`); \`output_text\` is the answer's text and \`usage\` counts \`input_tokens\` (read) and \`output_tokens\` (written). No response is stored (\`previous_response_id\` is refused). With \`stream: true\` the answer is \`text/event-stream\` of named events: ${streamed.map((type) => `\`${type}\``).join(', ')}; a failure after the stream began is an \`error\` event, then \`response.failed\`.`,
          auth: 'key',
          limit: 'deepsearch',
          metered: 'deepsearch',
          idempotent: true,
          json: responsesBody,
          example: {
            model: 'deepsearch-v1',
            input: 'Which reranker reads up to 64 documents in one context window?',
            reasoning: { effort: 'low' },
          },
          answer: responseObject,
          alternatives: [
            {
              mediaType: 'text/event-stream',
              description: 'With `stream: true`: events of these types, each `event: <type>` with its JSON as `data:`',
              schema: responseEvent,
            },
          ],
          errors: [401, 402, 403, 409, 413, 415, 422, 429, 502, 504],
        },
        ({ request, caller, json }) => responsesAnswer(request, caller, json),
      ),
    },
  },
})
