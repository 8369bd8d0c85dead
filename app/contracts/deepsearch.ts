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

/** Content parts deep search does not read: refused with a 422 saying so, never dropped silently. */
const unreadParts = ['image_url', 'input_audio', 'file'] as const

type ContentPart = { type: string; text?: string }
const isPartList = (content: unknown): content is ContentPart[] => Array.isArray(content)

/** A string, text parts, or null (an assistant turn that only called tools); read as one text. */
const messageContent = v.pipe(
  v.union([text, v.null(), v.array(v.looseObject({ type: v.string(), text: v.optional(text) }))]),
  v.check(
    (content) =>
      !isPartList(content) || !content.some((part) => (unreadParts as readonly string[]).includes(part.type)),
    'holds an image, audio or file part: deep search reads text only, so describe it in text or give the URL of a page that shows it',
  ),
  v.check(
    (content) => !isPartList(content) || content.every((part) => part.type === 'text' && part.text !== undefined),
    'must hold text parts ({type: "text", text})',
  ),
  v.transform((content) =>
    content === null ? '' : isPartList(content) ? content.map((part) => part.text!).join('\n') : content,
  ),
)

/** Roles read as the conversation's context; a `tool` message (a tool's result) is read like the others. */
export const messageRoles = ['system', 'developer', 'user', 'assistant', 'tool'] as const

const message = v.looseObject({
  role: v.picklist(messageRoles, `must be ${messageRoles.join(', ')}`),
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

/**
 * OpenAI's sampling options and end-user id: the upstream engine forwards them to its chat model (with the
 * caller's `max_tokens` and `response_format`); the built-in one answers extractively and names them in
 * `X-Options-Not-Applied`.
 */
export const modelChatOptions = [
  'temperature',
  'top_p',
  'user',
  'seed',
  'frequency_penalty',
  'presence_penalty',
] as const
export type ModelChatOption = (typeof modelChatOptions)[number]

/**
 * Where the reasoning goes: `parsed` (the default) in `reasoning_content` (and, streamed, `reasoning`) beside
 * the answer, as OpenAI-shaped clients read it; `think_tags` inside the content between `<think>` and
 * `</think>`, as the original deep search streams it. Asked with the body's `reasoning_format` or the
 * `X-Reasoning-Format` header (the body wins).
 */
export const reasoningFormats = ['parsed', 'think_tags'] as const
export type ReasoningFormat = (typeof reasoningFormats)[number]
export const reasoningFormat = v.picklist(reasoningFormats, `must be ${reasoningFormats.join(' or ')}`)

/** The request headers deep search reads. */
export const deepSearchHeaders = v.object({ 'x-reasoning-format': v.optional(reasoningFormat) })

/** The fields /v1/chat/completions reads; others are accepted and named in `X-Options-Not-Applied`. */
export const deepSearchFields = [
  'model',
  'messages',
  'stream',
  'stream_options',
  'reasoning_effort',
  'budget_tokens',
  'max_attempts',
  'no_direct_answer',
  'boost_hostnames',
  'bad_hostnames',
  'only_hostnames',
  'max_tokens',
  'max_completion_tokens',
  'max_returned_urls',
  'response_format',
  'reasoning_format',
  ...modelChatOptions,
] as const

const penalty = v.pipe(v.number(), v.minValue(-2, 'must be at least -2'), v.maxValue(2, 'must be at most 2'))
const positive = v.pipe(v.number(), v.integer('must be a whole number'), v.minValue(1, 'must be at least 1'))

export const deepSearchBody = v.pipe(
  v.looseObject({
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
    /** OpenAI's: with `include_usage`, a last chunk with empty `choices` carries the usage. */
    stream_options: v.optional(v.looseObject({ include_usage: v.optional(v.boolean()) })),
    /** Tokens the run may write (reasoning and answer); past them it stops with `finish_reason: "length"`. */
    max_tokens: v.optional(v.nullable(positive)),
    max_completion_tokens: v.optional(v.nullable(positive)),
    /** Sources the answer cites at most (the original's option). */
    max_returned_urls: v.optional(positive),
    response_format: v.optional(
      v.pipe(
        v.looseObject({
          type: v.picklist(
            ['text', 'json_object', 'json_schema'],
            'must be {type: "text"}, {type: "json_object"} or {type: "json_schema"}',
          ),
        }),
        v.check(
          (format) => format.type === 'text',
          'must be {type: "text"}: deep search answers in prose with citations, not JSON',
        ),
      ),
    ),
    reasoning_format: v.optional(reasoningFormat),
    /** Sampling settings (see `modelChatOptions`), in OpenAI's ranges. */
    temperature: v.optional(
      v.nullable(v.pipe(v.number(), v.minValue(0, 'must be at least 0'), v.maxValue(2, 'must be at most 2'))),
    ),
    top_p: v.optional(
      v.nullable(v.pipe(v.number(), v.minValue(0, 'must be at least 0'), v.maxValue(1, 'must be at most 1'))),
    ),
    user: v.optional(v.string()),
    seed: v.optional(v.nullable(whole)),
    frequency_penalty: v.optional(v.nullable(penalty)),
    presence_penalty: v.optional(v.nullable(penalty)),
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

/** Where in the answer's text a citation applies: `text.slice(start_index, end_index)` is the cited span. */
export const citedSpan = {
  /** The span's first character (a JavaScript string index: UTF-16 code units, as `slice` takes it). */
  start_index: v.number(),
  /** One past its last character: the end of its `[^n]` marker. */
  end_index: v.number(),
}
export type CitedSpan = { start_index: number; end_index: number }

/** A citation as the answer carries it: OpenAI's `url_citation` fields, and the original's quote and date. */
export const annotatedCitation = v.object({
  url: v.string(),
  title: v.string(),
  ...citedSpan,
  exactQuote: v.string(),
  dateTime: v.string(),
})
export type AnnotatedCitation = v.InferOutput<typeof annotatedCitation>

export const annotation = v.object({ type: v.literal('url_citation'), url_citation: annotatedCitation })

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
  /** A reasoning step (`reasoning_format: "parsed"`), under both names OpenAI-compatible clients read. */
  reasoning_content: v.optional(v.string()),
  reasoning: v.optional(v.string()),
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
      finish_reason: v.nullable(v.picklist(['thinking_end', 'stop', 'length', 'error'])),
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
        /** The reasoning steps (`reasoning_format: "parsed"`); with `think_tags` they open `content` instead. */
        reasoning_content: v.optional(v.string()),
        type: v.literal('text'),
        annotations: v.array(annotation),
      }),
      logprobs: v.null(),
      finish_reason: v.picklist(['stop', 'length']),
    }),
  ),
  usage,
  ...trail,
})
export type CompletionAnswer = v.InferOutput<typeof completionAnswer>
