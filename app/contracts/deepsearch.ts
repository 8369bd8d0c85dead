/**
 * Wire contract of deep search (`POST /v1/chat/completions`, model `deepsearch-v1`): an OpenAI-style chat
 * request with the agent's own options, answered as one `chat.completion` or streamed as
 * `chat.completion.chunk`s (see api-contracts.md for the order of the stream).
 */
import * as v from 'valibot'
import { isStorableText, unstorableTextMessage } from './common'

export const deepSearchModels = ['deepsearch-v1'] as const
export const reasoningEfforts = ['low', 'medium', 'high'] as const
export type ReasoningEffort = (typeof reasoningEfforts)[number]

export const deepSearchLimits = {
  maxMessages: 64,
  /** Characters of all messages together. */
  maxCharacters: 100_000,
  minBudgetTokens: 1_000,
  maxBudgetTokens: 10_000_000,
  maxAttempts: 10,
  maxHostnames: 100,
} as const

/** What an effort means when the request does not say: tokens the agent may read and write, and search rounds. */
export const effortDefaults: Record<ReasoningEffort, { budgetTokens: number; maxAttempts: number }> = {
  low: { budgetTokens: 20_000, maxAttempts: 1 },
  medium: { budgetTokens: 60_000, maxAttempts: 2 },
  high: { budgetTokens: 200_000, maxAttempts: 4 },
}

const text = v.pipe(v.string(), v.check(isStorableText, unstorableTextMessage))

const messageContent = v.union([
  text,
  v.pipe(
    v.array(v.strictObject({ type: v.literal('text'), text })),
    v.transform((parts) => parts.map((part) => part.text).join('\n')),
  ),
])

const message = v.object({
  role: v.picklist(['system', 'developer', 'user', 'assistant'], 'must be system, developer, user or assistant'),
  content: messageContent,
})

const hostname = v.pipe(
  v.string(),
  v.toLowerCase(),
  v.regex(/^(?=.{1,253}$)[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/, 'must be a host name'),
)
const hostnames = v.optional(
  v.pipe(
    v.array(hostname),
    v.maxLength(deepSearchLimits.maxHostnames, `must hold at most ${deepSearchLimits.maxHostnames} host names`),
  ),
  [],
)
const whole = v.pipe(v.number(), v.integer('must be a whole number'))

export const deepSearchBody = v.pipe(
  v.strictObject({
    model: v.picklist(deepSearchModels, `must be ${deepSearchModels.join(', ')}`),
    messages: v.pipe(
      v.array(message),
      v.minLength(1, 'must hold at least one message'),
      v.maxLength(deepSearchLimits.maxMessages, `must hold at most ${deepSearchLimits.maxMessages} messages`),
      v.check((messages) => messages.at(-1)?.role === 'user', 'must end with the user’s question'),
      v.check((messages) => messages.at(-1)!.content.trim() !== '', 'must end with a question that is not empty'),
      v.check(
        (messages) => messages.reduce((sum, m) => sum + m.content.length, 0) <= deepSearchLimits.maxCharacters,
        `must hold at most ${deepSearchLimits.maxCharacters} characters in all`,
      ),
    ),
    stream: v.optional(v.boolean(), false),
    reasoning_effort: v.optional(v.picklist(reasoningEfforts, 'must be low, medium or high'), 'medium'),
    budget_tokens: v.optional(
      v.pipe(
        whole,
        v.minValue(deepSearchLimits.minBudgetTokens, `must be at least ${deepSearchLimits.minBudgetTokens}`),
        v.maxValue(deepSearchLimits.maxBudgetTokens, `must be at most ${deepSearchLimits.maxBudgetTokens}`),
      ),
    ),
    max_attempts: v.optional(
      v.pipe(
        whole,
        v.minValue(1),
        v.maxValue(deepSearchLimits.maxAttempts, `must be at most ${deepSearchLimits.maxAttempts}`),
      ),
    ),
    no_direct_answer: v.optional(v.boolean(), false),
    boost_hostnames: hostnames,
    bad_hostnames: hostnames,
    only_hostnames: hostnames,
  }),
)
export type DeepSearchBody = v.InferOutput<typeof deepSearchBody>

export const urlCitation = v.object({
  title: v.string(),
  exactQuote: v.string(),
  url: v.string(),
  /** When the cited page says it was published (ISO 8601), else when it was read. */
  dateTime: v.string(),
})
export type UrlCitation = v.InferOutput<typeof urlCitation>

export const annotation = v.object({ type: v.literal('url_citation'), url_citation: urlCitation })

const usage = v.object({ prompt_tokens: v.number(), completion_tokens: v.number(), total_tokens: v.number() })

/** What the agent went through, on the last chunk and the completion: found, opened, and read in full. */
const trail = {
  visitedURLs: v.array(v.string()),
  readURLs: v.array(v.string()),
  numURLs: v.number(),
}

export const deltaTypes = ['think', 'text', 'error'] as const

export const chunkDelta = v.object({
  role: v.optional(v.literal('assistant')),
  content: v.optional(v.string()),
  type: v.optional(v.picklist(deltaTypes)),
  /** A think step that opens a page names it; one that searches names its query. */
  url: v.optional(v.string()),
  query: v.optional(v.string()),
  annotations: v.optional(v.array(annotation)),
})

export const completionChunk = v.object({
  id: v.string(),
  object: v.literal('chat.completion.chunk'),
  created: v.number(),
  model: v.string(),
  system_fingerprint: v.string(),
  choices: v.array(
    v.object({
      index: v.number(),
      delta: chunkDelta,
      logprobs: v.null(),
      finish_reason: v.nullable(v.picklist(['thinking_end', 'stop', 'error'])),
    }),
  ),
  usage: v.optional(usage),
  visitedURLs: v.optional(trail.visitedURLs),
  readURLs: v.optional(trail.readURLs),
  numURLs: v.optional(trail.numURLs),
})
export type CompletionChunk = v.InferOutput<typeof completionChunk>

export const completionAnswer = v.object({
  id: v.string(),
  object: v.literal('chat.completion'),
  created: v.number(),
  model: v.string(),
  system_fingerprint: v.string(),
  choices: v.array(
    v.object({
      index: v.number(),
      message: v.object({
        role: v.literal('assistant'),
        content: v.string(),
        type: v.literal('text'),
        annotations: v.array(annotation),
      }),
      logprobs: v.null(),
      finish_reason: v.literal('stop'),
    }),
  ),
  usage,
  ...trail,
})
export type CompletionAnswer = v.InferOutput<typeof completionAnswer>
