import type { AnnotatedCitation, CompletionChunk, DeepSearchBody } from '~/contracts/deepsearch'
import type * as v from 'valibot'
import type { ResponseObject, responsesAnnotation } from '~/contracts/responses'
import type { DeepSearchOutcome } from './run'

const hex = () => crypto.randomUUID().replaceAll('-', '')

type Event = { type: string } & Record<string, unknown>
type Annotation = v.InferOutput<typeof responsesAnnotation>

const annotationOf = (citation: AnnotatedCitation): Annotation => ({ type: 'url_citation', ...citation })

/**
 * One deep search run answered as OpenAI's Responses API: the `response` object (`answer`), or its events as
 * the run's chunks come (`events`): the reasoning as a `reasoning` item (its steps streamed as summary text),
 * then the answer as a `message` item of one `output_text` part whose citations are `url_citation`
 * annotations, and `response.completed` (or `response.incomplete` at `max_output_tokens`) with the usage.
 */
export function responseMaker(body: DeepSearchBody, request: { instructions: string | null }) {
  const id = `resp_${hex()}`
  const created_at = Math.floor(Date.now() / 1000)
  const reasoningId = `rs_${hex()}`
  const messageId = `msg_${hex()}`

  const reasoningItem = (text: string) => ({
    type: 'reasoning' as const,
    id: reasoningId,
    summary: text ? [{ type: 'summary_text' as const, text }] : [],
    ...(text && { content: [{ type: 'reasoning_text' as const, text }] }),
  })
  const outputText = (text: string, citations: AnnotatedCitation[]) => ({
    type: 'output_text' as const,
    text,
    annotations: citations.map(annotationOf),
    logprobs: [],
  })
  const messageItem = (
    status: 'in_progress' | 'completed' | 'incomplete',
    content: ReturnType<typeof outputText>[],
  ) => ({
    type: 'message' as const,
    id: messageId,
    status,
    role: 'assistant' as const,
    content,
  })

  const response = (
    status: ResponseObject['status'],
    rest: Partial<Pick<ResponseObject, 'output' | 'output_text' | 'usage' | 'error' | 'incomplete_details'>> &
      Partial<Pick<ResponseObject, 'visitedURLs' | 'readURLs' | 'numURLs'>> = {},
  ): ResponseObject => ({
    id,
    object: 'response',
    created_at,
    status,
    model: body.model,
    output: [],
    output_text: '',
    usage: null,
    error: null,
    incomplete_details: null,
    instructions: request.instructions,
    max_output_tokens: body.max_tokens ?? null,
    reasoning: { effort: body.reasoning_effort, summary: null },
    parallel_tool_calls: false,
    previous_response_id: null,
    store: false,
    text: { format: { type: 'text' } },
    tool_choice: 'none',
    tools: [],
    truncation: 'disabled',
    metadata: {},
    visitedURLs: [],
    readURLs: [],
    numURLs: 0,
    ...rest,
  })

  /** The finished response: the reasoning item (where there was reasoning), the message, usage and trail. */
  const answer = (outcome: DeepSearchOutcome, text = outcome.content): ResponseObject => {
    const { usage, visitedURLs, readURLs, numURLs } = outcome.totals
    const incomplete = outcome.finish === 'length'
    return response(incomplete ? 'incomplete' : 'completed', {
      output: [
        ...(outcome.reasoning ? [reasoningItem(outcome.reasoning)] : []),
        messageItem(incomplete ? 'incomplete' : 'completed', [outputText(text, outcome.citations)]),
      ],
      output_text: text,
      usage: {
        input_tokens: usage.prompt_tokens,
        input_tokens_details: { cached_tokens: 0 },
        output_tokens: usage.completion_tokens,
        output_tokens_details: { reasoning_tokens: outcome.reasoningTokens },
        total_tokens: usage.total_tokens,
      },
      incomplete_details: incomplete ? { reason: 'max_output_tokens' } : null,
      visitedURLs,
      readURLs,
      numURLs,
    })
  }

  /** The stream's events, numbered in order, from the run's chunks. */
  const events = (send: (event: Event) => void) => {
    let sequence = 0
    const emit = (event: Event) => send({ ...event, sequence_number: sequence++ })
    let reasoning: { index: number; text: string } | undefined
    let reasoningDone = false
    let message: { index: number; text: string } | undefined
    let outputs = 0
    const part = { item_id: reasoningId, summary_index: 0 }

    const closeReasoning = () => {
      if (!reasoning || reasoningDone) return
      reasoningDone = true
      const { index: output_index, text } = reasoning
      emit({ type: 'response.reasoning_summary_text.done', ...part, output_index, text })
      emit({
        type: 'response.reasoning_summary_part.done',
        ...part,
        output_index,
        part: { type: 'summary_text', text },
      })
      emit({ type: 'response.output_item.done', output_index, item: reasoningItem(text) })
    }
    const openMessage = () => {
      closeReasoning()
      if (message) return message
      message = { index: outputs++, text: '' }
      emit({ type: 'response.output_item.added', output_index: message.index, item: messageItem('in_progress', []) })
      emit({
        type: 'response.content_part.added',
        item_id: messageId,
        output_index: message.index,
        content_index: 0,
        part: outputText('', []),
      })
      return message
    }

    return {
      start() {
        emit({ type: 'response.created', response: response('in_progress') })
        emit({ type: 'response.in_progress', response: response('in_progress') })
      },
      /** A chat chunk of the run (reasoning in `reasoning_content`), as the events it stands for. */
      chunk(chunk: CompletionChunk) {
        const delta = chunk.choices[0]?.delta
        if (delta?.type === 'think' && delta.reasoning_content) {
          if (!reasoning) {
            reasoning = { index: outputs++, text: '' }
            emit({ type: 'response.output_item.added', output_index: reasoning.index, item: reasoningItem('') })
            emit({
              type: 'response.reasoning_summary_part.added',
              ...part,
              output_index: reasoning.index,
              part: { type: 'summary_text', text: '' },
            })
          }
          reasoning.text += delta.reasoning_content
          const output_index = reasoning.index
          emit({ type: 'response.reasoning_summary_text.delta', ...part, output_index, delta: delta.reasoning_content })
        } else if (delta?.type === 'text' && delta.content) {
          const { index: output_index } = openMessage()
          message!.text += delta.content
          emit({
            type: 'response.output_text.delta',
            item_id: messageId,
            output_index,
            content_index: 0,
            delta: delta.content,
            logprobs: [],
          })
        }
      },
      /** The run's end: the annotations, each item done, and the finished response. */
      finish(outcome: DeepSearchOutcome) {
        const { index: output_index, text } = openMessage()
        const at = { item_id: messageId, output_index, content_index: 0 }
        outcome.citations.forEach((citation, annotation_index) =>
          emit({
            type: 'response.output_text.annotation.added',
            ...at,
            annotation_index,
            annotation: annotationOf(citation),
          }),
        )
        emit({ type: 'response.output_text.done', ...at, text, logprobs: [] })
        emit({ type: 'response.content_part.done', ...at, part: outputText(text, outcome.citations) })
        const finished = answer(outcome, text)
        emit({ type: 'response.output_item.done', output_index, item: finished.output.at(-1) })
        emit({
          type: finished.status === 'incomplete' ? 'response.incomplete' : 'response.completed',
          response: finished,
        })
      },
      /** A failure after the stream began: OpenAI's `error` event, then `response.failed`. */
      fail(status: number, detail: string) {
        const code = failureCodes[status] ?? 'server_error'
        const message = `${status}: ${detail}`
        emit({ type: 'error', code, message, param: null })
        emit({ type: 'response.failed', response: response('failed', { error: { code, message } }) })
      },
    }
  }

  return { id, answer, events }
}

/** The `code` of a stream's `error` event, by the status the failure would have had as an answer. */
const failureCodes: Record<number, string> = {
  402: 'insufficient_balance',
  403: 'forbidden',
  429: 'rate_limit_exceeded',
  502: 'upstream_error',
  504: 'timeout',
}
