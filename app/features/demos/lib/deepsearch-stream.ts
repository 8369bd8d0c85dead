import { ApiError } from '~/lib/api-error'
import { streamEvents } from '~/lib/event-stream/request'

export interface DeepSearchBody {
  model: 'deepsearch-v1'
  messages: Array<{ role: 'user'; content: string }>
  stream: true
  reasoning_effort: 'low' | 'medium' | 'high'
}

export interface Citation {
  title: string
  exactQuote: string
  url: string
  dateTime: string
}

export interface ThinkStep {
  text: string
  url?: string
  query?: string
}

/** A deep-search answer as it streams in: its reasoning, the answer so far, and once done its sources and usage. */
export interface DeepSearchView {
  steps: ThinkStep[]
  thinking: boolean
  answer: string
  citations: Citation[]
  usage?: { prompt_tokens: number; completion_tokens: number; total_tokens: number }
  readURLs: string[]
  visitedURLs: string[]
}

export const emptyView: DeepSearchView = {
  steps: [],
  thinking: true,
  answer: '',
  citations: [],
  readURLs: [],
  visitedURLs: [],
}

interface Delta {
  content?: unknown
  reasoning_content?: unknown
  type?: unknown
  url?: unknown
  query?: unknown
  annotations?: Array<{ url_citation?: Citation }>
}

interface Chunk {
  choices?: Array<{ delta?: Delta; finish_reason?: unknown }>
  usage?: DeepSearchView['usage']
  readURLs?: string[]
  visitedURLs?: string[]
}

const malformed = () => new ApiError(200, 'unexpected answer (not a chat completion chunk)', { code: 'internal' })

/** An error chunk's "status: detail" as the ApiError it reports (its status gives the spec §8 code). */
function errorOf(content: string): ApiError {
  const match = content.match(/^(\d{3}): (.*)$/s)
  return match ? new ApiError(Number(match[1]), match[2]) : new ApiError(500, content)
}

/** The view after one chunk; an error chunk is thrown. */
export function applyChunk(view: DeepSearchView, chunk: Chunk): DeepSearchView {
  const choice = chunk.choices?.[0]
  const delta = choice?.delta
  if (!delta) throw malformed()
  const content = typeof delta.content === 'string' ? delta.content : ''
  if (delta.type === 'error') throw errorOf(content)
  if (delta.type === 'think') {
    // A step's text is its `reasoning_content`; a request for `think_tags` has it (and the tags) as content.
    if (content === '<think>') return { ...view, thinking: true }
    if (content === '</think>') return { ...view, thinking: false }
    const text = (typeof delta.reasoning_content === 'string' ? delta.reasoning_content : content).trim()
    if (!text) return view
    const step: ThinkStep = {
      text,
      ...(typeof delta.url === 'string' && { url: delta.url }),
      ...(typeof delta.query === 'string' && { query: delta.query }),
    }
    return { ...view, steps: [...view.steps, step] }
  }
  const next = { ...view, thinking: false, answer: view.answer + content }
  if (choice.finish_reason !== 'stop') return next
  return {
    ...next,
    citations: (delta.annotations ?? []).flatMap((a) => (a.url_citation ? [a.url_citation] : [])),
    usage: chunk.usage,
    readURLs: chunk.readURLs ?? [],
    visitedURLs: chunk.visitedURLs ?? [],
  }
}

/** Runs deep search as a stream, showing each chunk's effect as it comes; resolves with the finished view. */
export async function deepSearchStream(
  body: DeepSearchBody,
  apiKey: string | null,
  update: (view: DeepSearchView) => void,
  signal: AbortSignal,
): Promise<DeepSearchView> {
  let view = emptyView
  let finished = false
  const events = streamEvents('/v1/chat/completions', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
    apiKey,
    signal,
  })
  for await (const event of events) {
    if (event.data === '[DONE]') break
    let chunk: Chunk
    try {
      chunk = JSON.parse(event.data) as Chunk
    } catch {
      throw malformed()
    }
    view = applyChunk(view, chunk)
    finished ||= chunk.choices?.[0]?.finish_reason === 'stop'
    update(view)
  }
  if (!finished) throw new ApiError(200, 'the stream ended before the answer did', { code: 'internal' })
  return view
}

/** The answer's text split at its `[^n]` markers, so a screen can show each as a link to its source. */
export function answerParts(answer: string): Array<{ text: string } | { cite: number }> {
  return answer
    .split(/(\[\^\d+\])/)
    .filter(Boolean)
    .map((part) => {
      const marker = part.match(/^\[\^(\d+)\]$/)
      return marker ? { cite: Number(marker[1]) } : { text: part }
    })
}
