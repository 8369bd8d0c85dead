import type { CompletionAnswer, CompletionChunk, UrlCitation } from '~/contracts/deepsearch'

type Delta = CompletionChunk['choices'][number]['delta']
type FinishReason = CompletionChunk['choices'][number]['finish_reason']

export interface Totals {
  usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number }
  visitedURLs: string[]
  readURLs: string[]
  numURLs: number
}

/** Builds the chunks of one completion: the same id, creation time and model on each, as OpenAI clients expect. */
export function chunkMaker(model: string) {
  const id = `chatcmpl-${crypto.randomUUID().replaceAll('-', '')}`
  const created = Math.floor(Date.now() / 1000)
  const base = { id, created, model, system_fingerprint: 'fp_lodestar_deepsearch' }
  const chunk = (delta: Delta, finish: FinishReason = null, extra: Partial<Totals> = {}): CompletionChunk => ({
    ...base,
    object: 'chat.completion.chunk',
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
    ...extra,
  })
  return {
    thinkStart: () => chunk({ role: 'assistant', content: '<think>', type: 'think' }),
    think: (content: string, about: { url?: string; query?: string } = {}) =>
      chunk({ content, type: 'think', ...about }),
    thinkEnd: () => chunk({ content: '</think>', type: 'think' }, 'thinking_end'),
    text: (content: string) => chunk({ content, type: 'text' }),
    final: (annotations: UrlCitation[], totals: Totals, finish: 'stop' | 'length' = 'stop') =>
      chunk(
        {
          content: '',
          type: 'text',
          annotations: annotations.map((citation) => ({ type: 'url_citation' as const, url_citation: citation })),
        },
        finish,
        totals,
      ),
    /** OpenAI's `stream_options.include_usage`: one more chunk, with no choices, carrying the usage. */
    usage: (usage: Totals['usage']): CompletionChunk => ({
      ...base,
      object: 'chat.completion.chunk',
      choices: [],
      usage,
    }),
    error: (message: string) => chunk({ content: message, type: 'error' }, 'error'),
    /** The non-streamed answer: the same content as the stream's text deltas and last chunk, in one object. */
    completion: (
      content: string,
      annotations: UrlCitation[],
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
            content,
            type: 'text',
            annotations: annotations.map((citation) => ({ type: 'url_citation' as const, url_citation: citation })),
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
