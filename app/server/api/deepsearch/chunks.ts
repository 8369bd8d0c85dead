import type { AnnotatedCitation, CompletionAnswer, CompletionChunk, ReasoningFormat } from '~/contracts/deepsearch'

type Delta = CompletionChunk['choices'][number]['delta']
type FinishReason = CompletionChunk['choices'][number]['finish_reason']

export interface Totals {
  usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number }
  visitedURLs: string[]
  readURLs: string[]
  numURLs: number
}

export const THINK_OPEN = '<think>'
export const THINK_CLOSE = '</think>'

const annotationsOf = (citations: AnnotatedCitation[]) =>
  citations.map((citation) => ({ type: 'url_citation' as const, url_citation: citation }))

/**
 * Builds the chunks of one completion: the same id, creation time and model on each, as OpenAI clients expect.
 * The reasoning goes as `format` says: `parsed`, each step in `reasoning_content` and `reasoning` (no
 * `<think>` text in the content); `think_tags`, the original's stream (`<think>`, the steps as content,
 * `</think>` with `finish_reason: "thinking_end"`).
 */
export function chunkMaker(model: string, format: ReasoningFormat = 'parsed') {
  const id = `chatcmpl-${crypto.randomUUID().replaceAll('-', '')}`
  const created = Math.floor(Date.now() / 1000)
  const base = { id, created, model, system_fingerprint: 'fp_lodestar_deepsearch' }
  const tags = format === 'think_tags'
  const chunk = (delta: Delta, finish: FinishReason = null, extra: Partial<Totals> = {}): CompletionChunk => ({
    ...base,
    object: 'chat.completion.chunk',
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
    ...extra,
  })
  return {
    format,
    id,
    created,
    thinkStart: () => chunk({ role: 'assistant', content: tags ? THINK_OPEN : '', type: 'think' }),
    think: (text: string, about: { url?: string; query?: string } = {}) =>
      chunk(
        tags
          ? { content: text, type: 'think', ...about }
          : { reasoning_content: text, reasoning: text, type: 'think', ...about },
      ),
    /** The end of the reasoning: a chunk of its own with `think_tags` only. */
    thinkEnd: (): CompletionChunk | undefined =>
      tags ? chunk({ content: THINK_CLOSE, type: 'think' }, 'thinking_end') : undefined,
    text: (content: string) => chunk({ content, type: 'text' }),
    final: (annotations: AnnotatedCitation[], totals: Totals, finish: 'stop' | 'length' = 'stop') =>
      chunk({ content: '', type: 'text', annotations: annotationsOf(annotations) }, finish, totals),
    /** OpenAI's `stream_options.include_usage`: one more chunk, with no choices, carrying the usage. */
    usage: (usage: Totals['usage']): CompletionChunk => ({
      ...base,
      object: 'chat.completion.chunk',
      choices: [],
      usage,
    }),
    error: (message: string) => chunk({ content: message, type: 'error' }, 'error'),
    /**
     * The non-streamed answer: the same content as the stream's content deltas (the `<think>` part, with
     * `think_tags`, then the answer) and last chunk, in one object; with `parsed`, the reasoning beside it.
     */
    completion: (
      answer: { content: string; reasoning: string },
      annotations: AnnotatedCitation[],
      totals: Totals,
      finish: 'stop' | 'length' = 'stop',
    ): CompletionAnswer => ({
      ...base,
      object: 'chat.completion',
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: answer.content,
            ...(!tags && { reasoning_content: answer.reasoning }),
            type: 'text',
            annotations: annotationsOf(annotations),
          },
          logprobs: null,
          finish_reason: finish,
        },
      ],
      ...totals,
    }),
  }
}
export type ChunkMaker = ReturnType<typeof chunkMaker>
