import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { sql } from 'drizzle-orm'
import * as v from 'valibot'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { completionChunk, type CompletionChunk } from '~/contracts/deepsearch'
import { readEvents } from '~/lib/event-stream/parse'
import { call, keyWithBalance, respond, scalar, apiDatabase } from '../support/api'
import { startWebFixtures, type WebFixtures } from '../support/web-fixtures'

/** What the fake model and the fake search API were sent. */
interface Received {
  path: string
  headers: IncomingMessage['headers']
  body: any
}

let llm: Server
let search: Server
let web: WebFixtures
let received: Received[] = []
/** How the fake model answers a request (plan or answer), as the current test wants. */
let model: (request: Received) => { status: number; content?: string }

async function listen(handler: (request: Received, response: ServerResponse) => void): Promise<Server> {
  const server = createServer((request, response) => {
    let text = ''
    request.on('data', (chunk) => (text += chunk))
    request.on('end', () => {
      const entry = { path: request.url ?? '', headers: request.headers, body: text ? JSON.parse(text) : undefined }
      received.push(entry)
      handler(entry, response)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return server
}
const origin = (server: Server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}`
const isPlan = (request: Received) =>
  String(request.body?.messages?.[0]?.content).includes('Reply with one JSON object')

beforeAll(async () => {
  web = await startWebFixtures()
  llm = await listen((request, response) => {
    const { status, content } = model(request)
    response.writeHead(status, { 'content-type': 'application/json' })
    response.end(
      JSON.stringify(
        status === 200
          ? { id: 'x', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content } }] }
          : { error: { message: 'model overloaded' } },
      ),
    )
  })
  search = await listen((request, response) => {
    const query = new URL(request.path, 'http://x').searchParams.get('q')
    response.writeHead(200, { 'content-type': 'application/json' })
    response.end(
      JSON.stringify({
        query,
        results: [
          { url: web.url('/article'), title: 'Rerankers in practice', content: 'How a reranker lifts precision' },
          { url: web.url('/list'), title: 'Release notes', content: 'Changes' },
          { url: 'ftp://example.org/not-http', title: 'Skipped', content: '' },
        ],
      }),
    )
  })
})
afterAll(async () => {
  for (const server of [llm, search]) {
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  }
  await web.close()
})
// After the fakes' beforeAll, which names their addresses.
const database = apiDatabase({
  env: () => ({
    READER_ALLOW_PRIVATE_NETWORKS: 'true',
    DEEPSEARCH_ENGINE: 'upstream',
    LLM_BASE_URL: `${origin(llm)}/v1`,
    LLM_API_KEY: 'llm-secret-key',
    LLM_MODEL: 'tiny-chat',
    SEARCH_API_URL: `${origin(search)}/search`,
  }),
})
beforeEach(() => {
  received = []
})

const question = {
  model: 'deepsearch-v1',
  messages: [{ role: 'user', content: 'What nDCG@10 does a reranker reach?' }],
}

async function streamed(bearer: string) {
  const response = await respond('POST', '/v1/chat/completions', {
    bearer,
    json: { ...question, stream: true },
  })
  const chunks: CompletionChunk[] = []
  for await (const event of readEvents(response.body!))
    if (event.data !== '[DONE]') chunks.push(v.parse(completionChunk, JSON.parse(event.data)))
  return chunks
}

/** Plans a search first, answers once it has passages; the answer cites passages 1 and 2. */
const planThenAnswer = (request: Received) => {
  if (!isPlan(request))
    return {
      status: 200,
      content: 'A reranker reaches 61.9 nDCG@10 [^2]. It reads each candidate with the query [^1][^9].',
    }
  const hasPassages = !String(request.body.messages[1].content).includes('(none yet)')
  return {
    status: 200,
    content: hasPassages
      ? 'Sure: {"think": "The passages give the number.", "action": "answer"}'
      : '{"think": "I need pages about reranker scores.", "action": "search", "queries": ["reranker nDCG@10"]}',
  }
}

describe('deep search with the upstream engine (an OpenAI-compatible model and a SearXNG-style search)', () => {
  it('plans with the model, searches, reads the results through the reader and answers with exact quotes', async () => {
    model = planThenAnswer
    const key = await keyWithBalance(database.db, 1_000_000)
    const chunks = await streamed(key.apiKey)
    const steps = chunks.map((chunk) => chunk.choices[0].delta)
    expect(steps.map((step) => step.reasoning_content ?? step.content)).toEqual(
      expect.arrayContaining(['I need pages about reranker scores.\n', 'The passages give the number.\n']),
    )
    expect(steps.find((step) => step.query)).toMatchObject({ query: 'reranker nDCG@10' })
    // Each result is opened (said before the fetch), then read.
    expect(steps.filter((step) => step.url).map((step) => [step.reasoning_content?.split(' ')[0], step.url])).toEqual([
      ['Opening', web.url('/article')],
      ['Reading', web.url('/article')],
      ['Opening', web.url('/list')],
      ['Reading', web.url('/list')],
    ])

    // The model got our key, our model name and the passages; the search got the planned query.
    const toModel = received.filter((r) => r.path === '/v1/chat/completions')
    expect(toModel).toHaveLength(3)
    expect(toModel[0].headers.authorization).toBe('Bearer llm-secret-key')
    expect(toModel.every((r) => r.body.model === 'tiny-chat' && r.body.stream === false)).toBe(true)
    expect(toModel[2].body.messages[1].content).toContain('[1] Rerankers in practice')
    expect(received.find((r) => r.path.startsWith('/search'))?.path).toBe('/search?q=reranker+nDCG%4010&format=json')

    const last = chunks.at(-1)!
    const text = steps
      .filter((step) => step.type === 'text')
      .map((step) => step.content)
      .join('')
    // Markers renumbered in order of use; one naming no passage dropped.
    expect(text.trim()).toBe('A reranker reaches 61.9 nDCG@10 [^1]. It reads each candidate with the query [^2].')
    const citations = last.choices[0].delta.annotations!.map((a) => a.url_citation)
    expect(citations).toHaveLength(2)
    // Each citation spans the model's sentence that cites it, up to its marker.
    expect(citations.map((citation) => text.slice(citation.start_index, citation.end_index))).toEqual([
      'A reranker reaches 61.9 nDCG@10 [^1]',
      'It reads each candidate with the query [^2]',
    ])
    const article = (await call('GET', `/r/${web.url('/article')}`, { headers: { accept: 'application/json' } })).body
      .data.content as string
    for (const citation of citations) {
      expect(citation.url).toBe(web.url('/article'))
      expect(article).toContain(citation.exactQuote)
    }
    expect(last.readURLs).toEqual([web.url('/article'), web.url('/list')])
    expect(await scalar(database.db, sql`select balance from api_keys where id = ${key.id}::uuid`)).toBe(
      1_000_000 - last.usage!.total_tokens,
    )
  })

  it('searches even when the model would answer at once, given no_direct_answer', async () => {
    model = (request) =>
      isPlan(request)
        ? { status: 200, content: '{"think": "I know this.", "action": "answer"}' }
        : { status: 200, content: 'Reranking lifts precision [^1].' }
    const key = await keyWithBalance(database.db, 1_000_000)
    const direct = await call('POST', '/v1/chat/completions', { bearer: key.apiKey, json: question })
    expect(direct.body.readURLs).toEqual([])
    const searched = await call('POST', '/v1/chat/completions', {
      bearer: key.apiKey,
      json: { ...question, no_direct_answer: true, max_attempts: 1 },
    })
    expect(searched.body.readURLs.length).toBeGreaterThan(0)
  })

  it('turns a failing model into an error chunk mid-stream (502) and a 502 answer without stream, charging neither', async () => {
    model = () => ({ status: 500 })
    const key = await keyWithBalance(database.db, 1_000_000)
    const chunks = await streamed(key.apiKey)
    expect(chunks.at(-1)!.choices[0]).toMatchObject({
      finish_reason: 'error',
      delta: { type: 'error', content: '502: Upstream API failed (status 500)' },
    })
    const plain = await call('POST', '/v1/chat/completions', { bearer: key.apiKey, json: question })
    expect(plain).toMatchObject({ status: 502, body: { detail: 'Upstream API failed (status 500)' } })
    // The model failed before the agent said anything: nothing was delivered, nothing is charged.
    expect(await scalar(database.db, sql`select balance from api_keys where id = ${key.id}::uuid`)).toBe(1_000_000)
  })

  it('gives the model the conversation before the question, so a follow-up can be understood', async () => {
    model = planThenAnswer
    const key = await keyWithBalance(database.db, 1_000_000)
    const followUp = {
      model: 'deepsearch-v1',
      messages: [
        { role: 'user', content: 'Tell me about rerankers.' },
        { role: 'assistant', content: 'They reorder candidates.' },
        { role: 'user', content: 'What score does it reach?' },
      ],
    }
    expect((await call('POST', '/v1/chat/completions', { bearer: key.apiKey, json: followUp })).status).toBe(200)
    const prompts = received.filter((r) => r.path === '/v1/chat/completions').map((r) => r.body.messages[1].content)
    for (const prompt of prompts)
      expect(prompt).toContain(
        'Earlier in the conversation:\nuser: Tell me about rerankers.\nassistant: They reorder candidates.',
      )
    expect(prompts[0]).toContain('Question: What score does it reach?')
  })

  it("forwards OpenAI's sampling options, end-user id, response format and max_tokens to the model, naming only unknown fields", async () => {
    model = planThenAnswer
    const key = await keyWithBalance(database.db, 1_000_000)
    const options = {
      temperature: 0.7,
      top_p: 0.9,
      user: 'end-user-42',
      seed: 7,
      frequency_penalty: 0.5,
      presence_penalty: -0.5,
      response_format: { type: 'text' },
    }
    const answer = await call('POST', '/v1/chat/completions', {
      bearer: key.apiKey,
      json: { ...question, ...options, max_completion_tokens: 300, logit_bias: { 50256: -100 } },
    })
    expect(answer.status).toBe(200)
    expect(answer.response.headers.get('x-engine')).toBe('deepsearch:upstream')
    expect(answer.response.headers.get('x-options-not-applied')).toBe('logit_bias')
    const toModel = received.filter((r) => r.path === '/v1/chat/completions')
    expect(toModel.length).toBeGreaterThan(1)
    for (const sent of toModel) {
      expect(sent.body).toMatchObject(options)
      expect(sent.body).not.toHaveProperty('logit_bias')
      // The caller's limit caps each call's own (the planning call's 400 is already under it).
      expect(sent.body.max_tokens).toBeLessThanOrEqual(300)
    }
    expect(toModel.at(-1)!.body.max_tokens).toBe(300)

    // Without options, the model is asked deterministically, with the engine's own limits.
    received = []
    await call('POST', '/v1/chat/completions', { bearer: key.apiKey, json: question })
    const plain = received.filter((r) => r.path === '/v1/chat/completions')
    expect(plain.every((r) => r.body.temperature === 0 && !('user' in r.body) && !('top_p' in r.body))).toBe(true)
    expect(plain.at(-1)!.body.max_tokens).toBe(1200)

    const listed = await call('GET', '/v1/models')
    const chat = listed.body.data.find((m: { id: string }) => m.id === 'deepsearch-v1').options.chat
    expect(chat.honoured).toEqual(expect.arrayContaining(['temperature', 'top_p', 'user', 'seed']))
    expect(chat.not_applied).toEqual([])
  })

  it('refuses sampling options out of range with a 422 saying why', async () => {
    const key = await keyWithBalance(database.db, 1_000_000)
    const refused = await call('POST', '/v1/chat/completions', {
      bearer: key.apiKey,
      json: { ...question, temperature: 3 },
    })
    expect(refused.status).toBe(422)
    expect(refused.body.detail[0]).toMatchObject({ loc: ['body', 'temperature'], msg: 'must be at most 2' })
  })
})
