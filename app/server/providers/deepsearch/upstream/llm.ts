import { malformed, postJson, type UpstreamConnection } from '../../inference/upstream/client'

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant'
  content: string
}

/** One answer of an OpenAI-compatible chat model (`POST …/chat/completions`, not streamed). */
export async function chat(
  connection: UpstreamConnection & { model: string },
  messages: ChatMessage[],
  maxTokens: number,
) {
  const answer = (await postJson(connection, '/chat/completions', {
    model: connection.model,
    messages,
    max_tokens: maxTokens,
    temperature: 0,
    stream: false,
  })) as { choices?: Array<{ message?: { content?: unknown } }> }
  const content = answer.choices?.[0]?.message?.content
  if (typeof content !== 'string') throw malformed('/chat/completions', 'no message content')
  return content
}
