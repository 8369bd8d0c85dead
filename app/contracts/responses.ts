/**
 * Wire contract of OpenAI's Responses API for deep search (`POST /v1/responses`, model `deepsearch-v1`): the
 * request is read as the chat completion it stands for (`toChatBody`), so both run, meter and limit alike;
 * the answer is a `response` object, or streamed as its events.
 */
import * as v from 'valibot'
import { isStorableText, unstorableTextMessage } from './common'
import { annotatedCitation, deepSearchModels, reasoningEfforts, type ReasoningEffort } from './deepsearch'

const text = v.pipe(v.string(), v.check(isStorableText, unstorableTextMessage))

/** Text parts of a message: the input's, and an earlier answer's (`output_text`) sent back as context. */
const textParts = ['input_text', 'output_text', 'text'] as const

const content = v.pipe(
  v.union([text, v.array(v.looseObject({ type: v.string(), text: v.optional(text) }))]),
  v.check(
    (content) =>
      typeof content === 'string' ||
      content.every((part) => (textParts as readonly string[]).includes(part.type) && part.text !== undefined),
    'must hold text parts ({type: "input_text", text}): deep search reads text only, so describe an image or file in text or give the URL of a page that shows it',
  ),
  v.transform((content) => (typeof content === 'string' ? content : content.map((part) => part.text!).join('\n'))),
)

export const inputRoles = ['system', 'developer', 'user', 'assistant'] as const

/** An input item: a message (with or without `type: "message"`), or an earlier reasoning item, skipped. */
const inputItem = v.union([
  v.looseObject({
    type: v.optional(v.literal('message')),
    role: v.picklist(inputRoles, `must be ${inputRoles.join(', ')}`),
    content,
  }),
  v.looseObject({ type: v.literal('reasoning') }),
])

const positive = v.pipe(v.number(), v.integer('must be a whole number'), v.minValue(1, 'must be at least 1'))

/** OpenAI's efforts, read as deep search's nearest: `minimal` is `low`. */
const effortOf: Record<string, ReasoningEffort> = { minimal: 'low', low: 'low', medium: 'medium', high: 'high' }

/** The Responses fields that map onto a chat field; the others deep search reads are passed on as they are. */
const responsesOnly = ['input', 'instructions', 'reasoning', 'max_output_tokens', 'text'] as const

export const responsesBody = v.looseObject({
  model: v.picklist(deepSearchModels, `must be ${deepSearchModels.join(', ')}`),
  input: v.union(
    [
      text,
      v.pipe(
        v.array(inputItem),
        v.check((items) => items.some((item) => 'role' in item), 'must hold at least one message'),
      ),
    ],
    'must be a text or a list of messages',
  ),
  instructions: v.optional(v.nullable(text)),
  stream: v.optional(v.boolean(), false),
  reasoning: v.optional(
    v.nullable(
      v.looseObject({
        effort: v.optional(
          v.nullable(v.picklist(Object.keys(effortOf), `must be minimal, ${reasoningEfforts.join(', ')}`)),
        ),
      }),
    ),
  ),
  max_output_tokens: v.optional(v.nullable(positive)),
  text: v.optional(
    v.nullable(
      v.looseObject({
        format: v.optional(
          v.pipe(
            v.looseObject({ type: v.string() }),
            v.check(
              (format) => format.type === 'text',
              'must be {type: "text"}: deep search answers in prose with citations, not JSON',
            ),
          ),
        ),
      }),
    ),
  ),
  previous_response_id: v.optional(
    v.nullable(
      v.pipe(
        v.string(),
        v.check(() => false, 'is not kept: this server stores no responses, so send the conversation in `input`'),
      ),
    ),
  ),
})
export type ResponsesBody = v.InferOutput<typeof responsesBody>

/**
 * The chat completion the request stands for: `instructions` as a system message, then the input's messages;
 * `reasoning.effort`, `max_output_tokens` and `text.format` as `reasoning_effort`, `max_tokens` and
 * `response_format`; deep search's own options (`budget_tokens`, `only_hostnames`, …) as they are.
 */
export function toChatBody(body: ResponsesBody): Record<string, unknown> {
  // Fields of neither API (`store`, `tools`, …) go on too: deep search names them in `X-Options-Not-Applied`.
  const rest = Object.fromEntries(
    Object.entries(body).filter(([field]) => !(responsesOnly as readonly string[]).includes(field)),
  )
  const items = typeof body.input === 'string' ? [{ role: 'user', content: body.input }] : body.input
  const messages = [
    ...(body.instructions ? [{ role: 'system', content: body.instructions }] : []),
    ...items.flatMap((item) => ('role' in item ? [{ role: item.role, content: item.content }] : [])),
  ]
  const effort = body.reasoning?.effort
  return {
    ...rest,
    messages,
    ...(effort && { reasoning_effort: effortOf[effort] }),
    ...(body.max_output_tokens != null && { max_tokens: body.max_output_tokens }),
    ...(body.text?.format && { response_format: body.text.format }),
    reasoning_format: 'parsed',
  }
}

/** Where a chat field's problem is in the Responses request. */
export const responsesFieldOf: Record<string, string> = {
  messages: 'input',
  reasoning_effort: 'reasoning',
  max_tokens: 'max_output_tokens',
  response_format: 'text',
}

const usage = v.object({
  input_tokens: v.number(),
  input_tokens_details: v.object({ cached_tokens: v.number() }),
  output_tokens: v.number(),
  output_tokens_details: v.object({ reasoning_tokens: v.number() }),
  total_tokens: v.number(),
})

/** A citation as a Responses annotation: OpenAI's `url_citation`, with the original's quote and date. */
export const responsesAnnotation = v.object({ type: v.literal('url_citation'), ...annotatedCitation.entries })

const outputText = v.object({
  type: v.literal('output_text'),
  text: v.string(),
  annotations: v.array(responsesAnnotation),
  logprobs: v.array(v.unknown()),
})

export const messageItem = v.object({
  type: v.literal('message'),
  id: v.string(),
  status: v.picklist(['in_progress', 'completed', 'incomplete']),
  role: v.literal('assistant'),
  content: v.array(outputText),
})

/** The agent's reasoning steps, as a summary (what clients show) and as its text. */
export const reasoningItem = v.object({
  type: v.literal('reasoning'),
  id: v.string(),
  summary: v.array(v.object({ type: v.literal('summary_text'), text: v.string() })),
  content: v.optional(v.array(v.object({ type: v.literal('reasoning_text'), text: v.string() }))),
})

export const responseObject = v.object({
  id: v.string(),
  object: v.literal('response'),
  created_at: v.number(),
  status: v.picklist(['in_progress', 'completed', 'incomplete', 'failed']),
  model: v.string(),
  output: v.array(v.union([reasoningItem, messageItem])),
  /** The answer's text: the `output_text` parts joined, as OpenAI's SDKs give it. */
  output_text: v.string(),
  usage: v.nullable(usage),
  error: v.nullable(v.object({ code: v.string(), message: v.string() })),
  incomplete_details: v.nullable(v.object({ reason: v.string() })),
  instructions: v.nullable(v.string()),
  max_output_tokens: v.nullable(v.number()),
  reasoning: v.object({ effort: v.picklist(reasoningEfforts), summary: v.nullable(v.string()) }),
  parallel_tool_calls: v.boolean(),
  previous_response_id: v.null(),
  store: v.boolean(),
  text: v.object({ format: v.object({ type: v.literal('text') }) }),
  tool_choice: v.string(),
  tools: v.array(v.unknown()),
  truncation: v.string(),
  metadata: v.record(v.string(), v.unknown()),
  /** What the agent went through (the original's): found, opened, and read in full. */
  visitedURLs: v.array(v.string()),
  readURLs: v.array(v.string()),
  numURLs: v.number(),
})
export type ResponseObject = v.InferOutput<typeof responseObject>

/** The events of a streamed response, each `event: <type>` with its JSON as `data:`, in this order. */
export const responseEventTypes = [
  'response.created',
  'response.in_progress',
  'response.output_item.added',
  'response.reasoning_summary_part.added',
  'response.reasoning_summary_text.delta',
  'response.reasoning_summary_text.done',
  'response.reasoning_summary_part.done',
  'response.content_part.added',
  'response.output_text.delta',
  'response.output_text.annotation.added',
  'response.output_text.done',
  'response.content_part.done',
  'response.output_item.done',
  'response.completed',
  'response.incomplete',
  'error',
  'response.failed',
] as const

export const responseEvent = v.looseObject({
  type: v.picklist(responseEventTypes),
  sequence_number: v.number(),
  response: v.optional(responseObject),
  output_index: v.optional(v.number()),
  item_id: v.optional(v.string()),
  item: v.optional(v.union([reasoningItem, messageItem])),
  content_index: v.optional(v.number()),
  delta: v.optional(v.string()),
  text: v.optional(v.string()),
  annotation_index: v.optional(v.number()),
  annotation: v.optional(responsesAnnotation),
})
