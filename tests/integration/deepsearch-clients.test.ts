import { createOpenAI } from '@ai-sdk/openai'
import { createOpenAICompatible } from '@ai-sdk/openai-compatible'
import { generateText, streamText } from 'ai'
import OpenAI from 'openai'
import { describe, expect, it } from 'vitest'
import { BASE, keyWithBalance, send } from '../support/api'
import { apiWithWeb } from '../support/api-with-web'

/**
 * Deep search through the clients developers install today, at their installed versions with their defaults
 * (only the base URL and key set): the official `openai` SDK's chat and Responses calls, and the AI SDK's OpenAI
 * provider, whose default model speaks the Responses API and whose `.chat` model the chat completions. Each
 * client's own schema checks the answers, so a field it refuses fails the test.
 */
const api = apiWithWeb({ READER_ALLOW_PRIVATE_NETWORKS: 'true', DEEPSEARCH_ENGINE: 'builtin' })
const question = 'Which reranker reads up to 64 documents in one context window?'
const baseURL = `${BASE}/v1`
/** The clients' requests go through the app's real handler in this process, as a socket would bring them. */
const viaHandler = (url: string | URL | Request, init?: RequestInit) => send(new Request(url, init))

async function freshKey() {
  return (await keyWithBalance(api.database.db, 1_000_000)).apiKey
}

describe('the openai SDK', () => {
  const client = (apiKey: string) => new OpenAI({ apiKey, baseURL, fetch: viaHandler })

  it('reads a chat completion with url_citation annotations into its text and reasoning apart from it', async () => {
    const answer = await client(await freshKey()).chat.completions.create({
      model: 'deepsearch-v1',
      messages: [{ role: 'user', content: question }],
    })
    const message = answer.choices[0]!.message
    expect(message.content).not.toContain('<think>')
    expect((message as unknown as { reasoning_content?: string }).reasoning_content).toBeTruthy()
    const citations = message.annotations ?? []
    expect(citations.length).toBeGreaterThan(0)
    for (const { type, url_citation } of citations) {
      expect(type).toBe('url_citation')
      expect(url_citation.url).toMatch(/^https?:\/\//)
      expect(url_citation.end_index).toBeGreaterThan(url_citation.start_index)
      expect(url_citation.end_index).toBeLessThanOrEqual(message.content!.length)
    }
    expect(answer.usage?.total_tokens).toBeGreaterThan(0)
  })

  it('creates a response, streamed and not, with output_text, citations as annotations and usage', async () => {
    const openai = client(await freshKey())
    const response = await openai.responses.create({ model: 'deepsearch-v1', input: question })
    expect(response.status).toBe('completed')
    expect(response.output_text.length).toBeGreaterThan(20)
    expect(response.output_text).not.toContain('<think>')
    const message = response.output.find((item) => item.type === 'message')
    const text = message?.type === 'message' ? message.content.find((part) => part.type === 'output_text') : undefined
    expect(text?.type === 'output_text' && text.annotations.some((a) => a.type === 'url_citation')).toBe(true)
    expect(response.usage?.total_tokens).toBe(
      (response.usage?.input_tokens ?? 0) + (response.usage?.output_tokens ?? 0),
    )

    const stream = await openai.responses.create({ model: 'deepsearch-v1', input: question, stream: true })
    const events: string[] = []
    let deltas = ''
    let completed: OpenAI.Responses.Response | undefined
    for await (const event of stream) {
      events.push(event.type)
      if (event.type === 'response.output_text.delta') deltas += event.delta
      if (event.type === 'response.completed') completed = event.response
    }
    expect(events[0]).toBe('response.created')
    expect(events).toContain('response.output_text.done')
    expect(events.at(-1)).toBe('response.completed')
    expect(completed).toBeDefined()
    expect(deltas).toBe(textOf(completed!))
  })

  it('gives a refused call its status and the API’s words', async () => {
    const error = await client('jina_not-a-key-at-all')
      .responses.create({ model: 'deepsearch-v1', input: question })
      .catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(OpenAI.APIError)
    expect((error as InstanceType<typeof OpenAI.APIError>).status).toBe(401)
  })
})

/** A response's text, from its message items (the SDK adds `output_text` only on what it parsed itself). */
function textOf(response: OpenAI.Responses.Response): string {
  return response.output
    .flatMap((item) => (item.type === 'message' ? item.content : []))
    .map((part) => (part.type === 'output_text' ? part.text : ''))
    .join('')
}

describe('the AI SDK’s OpenAI provider', () => {
  const provider = (apiKey: string) => createOpenAI({ apiKey, baseURL, fetch: viaHandler })

  it('generates with the default model (the Responses API): text, sources and reasoning apart', async () => {
    const result = await generateText({ model: provider(await freshKey())('deepsearch-v1'), prompt: question })
    expect(result.text.length).toBeGreaterThan(20)
    expect(result.text).not.toContain('<think>')
    expect(result.sources.some((source) => source.sourceType === 'url')).toBe(true)
    expect(result.usage.totalTokens).toBeGreaterThan(0)
  })

  // The OpenAI provider's chat model reads no reasoning field (OpenAI's chat API sends none); the
  // OpenAI-compatible provider below reads `reasoning_content`.
  it('generates and streams with the chat model: text and url sources, no <think> in the text', async () => {
    const chat = provider(await freshKey()).chat('deepsearch-v1')
    const generated = await generateText({ model: chat, prompt: question })
    expect(generated.text).not.toContain('<think>')
    expect(generated.sources.some((source) => source.sourceType === 'url')).toBe(true)

    const streamed = streamText({ model: chat, prompt: question })
    let text = ''
    for await (const part of streamed.textStream) text += part
    expect(text).toBe(await streamed.text)
    expect(text).not.toContain('<think>')
    expect((await streamed.sources).some((source) => source.sourceType === 'url')).toBe(true)
  })
})

describe('the AI SDK’s OpenAI-compatible provider', () => {
  it('reads deep search’s reasoning from reasoning_content, apart from the text, streamed and not', async () => {
    const provider = createOpenAICompatible({
      name: 'deepsearch',
      apiKey: await freshKey(),
      baseURL,
      fetch: viaHandler,
    })
    const generated = await generateText({ model: provider('deepsearch-v1'), prompt: question })
    expect(generated.reasoningText).toBeTruthy()
    expect(generated.text).not.toContain(generated.reasoningText!.slice(0, 40))
    const streamed = streamText({ model: provider('deepsearch-v1'), prompt: question })
    expect(await streamed.reasoningText).toBeTruthy()
    expect(await streamed.text).not.toContain('<think>')
  })
})
