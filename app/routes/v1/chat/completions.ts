import { createFileRoute } from '@tanstack/react-router'
import {
  completionAnswer,
  completionChunk,
  deepSearchBody,
  deepSearchHeaders,
  effortDefaults,
} from '~/contracts/deepsearch'
import { deepSearchAnswer } from '~/server/http/chat-answers'
import { endpoint } from '~/server/http/endpoint'

const budgets = Object.entries(effortDefaults)
  .map(
    ([effort, { budgetTokens, maxAttempts }]) =>
      `${effort} ${budgetTokens.toLocaleString('en-US')} tokens and ${maxAttempts} search round${maxAttempts === 1 ? '' : 's'}`,
  )
  .join(', ')

export const Route = createFileRoute('/v1/chat/completions')({
  server: {
    handlers: {
      POST: endpoint(
        {
          summary: 'Deep search: search, read and reason, then answer with citations',
          description: `An OpenAI-compatible chat completion (model \`deepsearch-v1\`) answering the last user message. The agent searches, reads pages (and any URL in the question, through the reader) and reasons until it can answer or \`budget_tokens\` or \`max_attempts\` is spent; defaults by \`reasoning_effort\`: ${budgets}. The reasoning is in \`message.reasoning_content\` (streamed: each step's \`reasoning_content\` and \`reasoning\`); with \`reasoning_format: "think_tags"\` (or the header \`X-Reasoning-Format: think_tags\`) it is inside the content between \`<think>\` and \`</think>\`, as the original deep search sends it. With \`stream: true\` the answer is \`text/event-stream\`: \`data:\` lines of \`chat.completion.chunk\`s — reasoning steps of \`type: "think"\` (with \`url\` or \`query\` when the agent reads or searches; with \`think_tags\`, between \`<think>\` and \`</think>\` chunks, the last with \`finish_reason: "thinking_end"\`), the answer as \`type: "text"\` deltas, a last chunk with \`url_citation\` annotations (\`url\`, \`title\`, \`start_index\` and \`end_index\` of the cited span in the content, \`exactQuote\`, \`dateTime\`), \`finish_reason: "stop"\`, \`usage\`, \`visitedURLs\`, \`readURLs\` and \`numURLs\` — then \`data: [DONE]\`; a failure after the stream began is a chunk of \`type: "error"\`. Charged per token read and written (usage.prompt_tokens and completion_tokens), each covered before it is sent.`,
          auth: 'key',
          limit: 'deepsearch',
          metered: 'deepsearch',
          idempotent: true,
          json: deepSearchBody,
          headers: deepSearchHeaders,
          example: {
            model: 'deepsearch-v1',
            messages: [{ role: 'user', content: 'Which reranker reads up to 64 documents in one context window?' }],
            reasoning_effort: 'low',
            stream: true,
          },
          answer: completionAnswer,
          alternatives: [
            {
              mediaType: 'text/event-stream',
              description: 'With `stream: true`: `data:` lines of chunks shaped like this, then `data: [DONE]`',
              schema: completionChunk,
            },
          ],
          errors: [401, 402, 403, 409, 413, 415, 422, 429, 502, 504],
        },
        ({ request, caller, json, headers }) => deepSearchAnswer(request, caller, json, headers),
      ),
    },
  },
})
