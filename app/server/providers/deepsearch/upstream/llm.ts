import { malformed, postJson, type UpstreamConnection } from '../../inference/upstream/client'

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant'
  content: string
}

/** What the caller asked of the model: sampling options passed as given, and its own limits. */
export interface CallerModelOptions {
  sampling: Record<string, unknown>
  maxTokens?: number
  responseFormat?: Record<string, unknown>
}

/**
 * One answer of an OpenAI-compatible chat model (`POST …/chat/completions`, not streamed). Deterministic
 * (temperature 0) unless the caller chose its sampling, which is forwarded as given; the caller's
 * `max_tokens` caps the step's own, as the run never writes more than that.
 */
export async function chat(
  connection: UpstreamConnection & { model: string },
  messages: ChatMessage[],
  maxTokens: number,
  caller: CallerModelOptions = { sampling: {} },
) {
  const answer = (await postJson(connection, '/chat/completions', {
    model: connection.model,
    messages,
    temperature: 0,
    ...caller.sampling,
    max_tokens: Math.min(maxTokens, caller.maxTokens ?? Infinity),
    ...(caller.responseFormat && { response_format: caller.responseFormat }),
    stream: false,
  })) as { choices?: Array<{ message?: { content?: unknown } }> }
  const content = answer.choices?.[0]?.message?.content
  if (typeof content !== 'string') throw malformed('/chat/completions', 'no message content')
  return content
}
