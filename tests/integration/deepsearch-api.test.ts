import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { completionChunk, type CompletionChunk } from '~/contracts/deepsearch'
import { readEvents } from '~/lib/event-stream/parse'
import { siteIndex } from '~/server/providers/search/builtin/site-index'
import { BASE, call, keyWithBalance, respond } from '../support/api'
import { apiWithWeb } from '../support/api-with-web'

const api = apiWithWeb({ READER_ALLOW_PRIVATE_NETWORKS: 'true', DEEPSEARCH_ENGINE: 'builtin' })

const ask = (question: string, extra: Record<string, unknown> = {}) => ({
  model: 'deepsearch-v1',
  messages: [{ role: 'user', content: question }],
  ...extra,
})

/** The stream's chunks, read with the shared event-stream client; `done` says whether `[DONE]` closed it. */
async function streamed(bearer: string, body: unknown) {
  const response = await respond('POST', '/v1/chat/completions', {
    bearer,
    json: { ...(body as object), stream: true },
  })
  expect(response.status).toBe(200)
  expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8')
  const chunks: CompletionChunk[] = []
  let done = false
  for await (const event of readEvents(response.body!)) {
    if (event.data === '[DONE]') {
      done = true
      continue
    }
    expect(done).toBe(false)
    chunks.push(v.parse(completionChunk, JSON.parse(event.data)))
  }
  return { chunks, done }
}

const deltas = (chunks: CompletionChunk[]) => chunks.map((chunk) => chunk.choices[0].delta)

describe('POST /v1/chat/completions with the built-in engine', () => {
  it('streams reasoning in reasoning_content with its queries and pages, a cited answer, usage and [DONE]', async () => {
    const key = await keyWithBalance(api.database.db, 1_000_000)
    const { chunks, done } = await streamed(
      key.apiKey,
      ask('Which reranker reads up to 64 documents in one context window?'),
    )
    expect(done).toBe(true)
    const steps = deltas(chunks)
    expect(steps[0]).toEqual({ role: 'assistant', content: '', type: 'think' })
    const firstText = steps.findIndex((step) => step.type === 'text')
    const thinking = steps.slice(1, firstText)
    expect(thinking.length).toBeGreaterThan(0)
    for (const step of thinking) {
      expect(step.type).toBe('think')
      // The step under both names clients read, and never as the answer's content.
      expect(step.reasoning_content).toBeTruthy()
      expect(step.reasoning).toBe(step.reasoning_content)
      expect(step.content).toBeUndefined()
    }
    expect(thinking.some((step) => step.query)).toBe(true)
    expect(thinking.some((step) => step.url?.startsWith(`${BASE}/`))).toBe(true)
    expect(chunks.some((chunk) => chunk.choices[0]?.finish_reason === 'thinking_end')).toBe(false)
    const answer = steps.slice(firstText)
    expect(answer.every((step) => step.type === 'text')).toBe(true)
    const last = chunks.at(-1)!
    expect(last.choices[0].finish_reason).toBe('stop')
    const citations = last.choices[0].delta.annotations!.map((a) => a.url_citation)
    expect(citations.length).toBeGreaterThan(0)
    // The best source says it, and every quote is exactly on the page it cites.
    expect(citations[0].exactQuote).toMatch(/64 (candidate )?documents/)
    const pages = await siteIndex(BASE)
    for (const citation of citations) {
      expect(pages.some((page) => page.url === citation.url && page.content.includes(citation.exactQuote))).toBe(true)
      expect(Date.parse(citation.dateTime)).not.toBeNaN()
    }
    const content = answer.map((step) => step.content).join('')
    expect(content).not.toContain('<think>')
    // OpenAI's url_citation: start_index and end_index give the cited span of the content, quote and marker.
    citations.forEach((citation, i) =>
      expect(content.slice(citation.start_index, citation.end_index)).toBe(`${citation.exactQuote} [^${i + 1}]`),
    )
    expect(last.usage!.total_tokens).toBe(last.usage!.prompt_tokens + last.usage!.completion_tokens)
    expect(last.readURLs!.length).toBeGreaterThan(0)
    expect(last.visitedURLs).toEqual(expect.arrayContaining(last.readURLs!))
    expect(last.numURLs).toBe(last.visitedURLs!.length)
    // Charged exactly what it reports, the unused reservation given back.
    expect(await api.balanceOf(key.id)).toBe(1_000_000 - last.usage!.total_tokens)
  })

  it('streams the original <think> … </think> content when asked, by body field or X-Reasoning-Format', async () => {
    const key = await keyWithBalance(api.database.db, 1_000_000)
    const question = ask('Which reranker reads up to 64 documents in one context window?')
    const byField = await streamed(key.apiKey, { ...question, reasoning_format: 'think_tags' })
    const response = await respond('POST', '/v1/chat/completions', {
      bearer: key.apiKey,
      json: { ...question, stream: true },
      headers: { 'X-Reasoning-Format': 'think_tags' },
    })
    const byHeader: CompletionChunk[] = []
    for await (const event of readEvents(response.body!))
      if (event.data !== '[DONE]') byHeader.push(v.parse(completionChunk, JSON.parse(event.data)))
    for (const chunks of [byField.chunks, byHeader]) {
      const steps = deltas(chunks)
      expect(steps[0]).toEqual({ role: 'assistant', content: '<think>', type: 'think' })
      const end = chunks.findIndex((chunk) => chunk.choices[0].finish_reason === 'thinking_end')
      expect(steps[end]).toEqual({ content: '</think>', type: 'think' })
      expect(
        steps.slice(1, end).every((step) => step.type === 'think' && step.content && !step.reasoning_content),
      ).toBe(true)
      // The indices point into the whole content, <think> part included.
      const content = steps.map((step) => step.content ?? '').join('')
      const citations = chunks.at(-1)!.choices[0].delta.annotations!.map((a) => a.url_citation)
      expect(citations.length).toBeGreaterThan(0)
      for (const citation of citations)
        expect(content.slice(citation.start_index, citation.end_index)).toContain(citation.exactQuote)
    }
    // Not streamed: the content opens with the <think> part, and no reasoning_content beside it.
    const { body } = await call('POST', '/v1/chat/completions', {
      bearer: key.apiKey,
      json: { ...question, reasoning_format: 'think_tags' },
    })
    const { message } = body.choices[0]
    expect(message.content).toMatch(/^<think>[^]*Searching this site[^]*<\/think>\S/)
    expect(message.reasoning_content).toBeUndefined()
    for (const { url_citation: citation } of message.annotations)
      expect(message.content.slice(citation.start_index, citation.end_index)).toContain(citation.exactQuote)
    const refused = await call('POST', '/v1/chat/completions', {
      bearer: key.apiKey,
      json: question,
      headers: { 'X-Reasoning-Format': 'xml' },
    })
    expect(refused.status).toBe(422)
  })

  it('answers the same in one completion object without stream, charging what its usage says', async () => {
    const key = await keyWithBalance(api.database.db, 1_000_000)
    const question = ask('Which reranker reads up to 64 documents in one context window?')
    const { status, body } = await call('POST', '/v1/chat/completions', {
      bearer: key.apiKey,
      json: question,
    })
    expect(status).toBe(200)
    expect(body).toMatchObject({ object: 'chat.completion', model: 'deepsearch-v1' })
    const [choice] = body.choices
    expect(choice).toMatchObject({ index: 0, finish_reason: 'stop', message: { role: 'assistant', type: 'text' } })
    const { chunks } = await streamed(key.apiKey, question)
    const streamedText = deltas(chunks)
      .filter((step) => step.type === 'text')
      .map((step) => step.content)
      .join('')
    expect(choice.message.content).toBe(streamedText.trim())
    expect(choice.message.annotations).toEqual(chunks.at(-1)!.choices[0].delta.annotations)
    // The reasoning beside the answer, not inside it.
    expect(choice.message.reasoning_content).toContain('Searching this site for')
    expect(choice.message.content).not.toContain('<think>')
    expect(choice.message.content).not.toContain('Searching this site for')
    expect(body.usage.total_tokens).toBeGreaterThan(0)
    expect(body.numURLs).toBe(body.visitedURLs.length)
  })

  it('searches again for what the evidence does not cover, at most max_attempts times', async () => {
    const key = await keyWithBalance(api.database.db, 1_000_000)
    const question = 'How much does the reader cost, and which conference published the code embeddings paper?'
    const queries = async (maxAttempts: number) => {
      const { chunks } = await streamed(key.apiKey, ask(question, { max_attempts: maxAttempts }))
      return deltas(chunks)
        .filter((step) => step.query)
        .map((step) => step.query)
    }
    const once = await queries(1)
    expect(once).toHaveLength(1)
    const thrice = await queries(3)
    expect(thrice.length).toBeGreaterThan(1)
    expect(thrice.length).toBeLessThanOrEqual(3)
    // The later rounds search for what was missing, not the same words again.
    expect(new Set(thrice).size).toBe(thrice.length)
  })

  it('stops reading when budget_tokens would be spent, and reads more with a larger budget', async () => {
    const key = await keyWithBalance(api.database.db, 1_000_000)
    const question = ask('What do the news posts say about DeepSearch, ReaderLM-v2 and embeddings v4?', {
      max_attempts: 3,
    })
    const small = await streamed(key.apiKey, { ...question, budget_tokens: 1000 })
    const large = await streamed(key.apiKey, { ...question, budget_tokens: 200_000 })
    const read = (run: typeof small) => run.chunks.at(-1)!.readURLs!.length
    expect(read(small)).toBeLessThan(read(large))
    expect(deltas(small.chunks).some((step) => step.reasoning_content?.includes('budget is nearly spent'))).toBe(true)
    expect(small.chunks.at(-1)!.usage!.prompt_tokens).toBeLessThanOrEqual(1000)
  })

  it('reads a URL written in the question through the reader, and cites it', async () => {
    const key = await keyWithBalance(api.database.db, 1_000_000)
    const url = api.web.url('/article')
    const { chunks } = await streamed(key.apiKey, ask(`According to ${url}, what nDCG@10 does the reranker reach?`))
    const last = chunks.at(-1)!
    expect(last.readURLs).toContain(url)
    expect(deltas(chunks).some((step) => step.url === url && step.reasoning_content?.startsWith(`Read ${url}`))).toBe(
      true,
    )
    const cited = last.choices[0].delta.annotations!.map((a) => a.url_citation)
    expect(cited.find((citation) => citation.url === url)).toMatchObject({
      title: 'Rerankers in practice',
      dateTime: '2025-03-04T05:06:07.000Z',
    })
  })

  it('keeps to only_hostnames and away from bad_hostnames', async () => {
    const key = await keyWithBalance(api.database.db, 1_000_000)
    const question = 'Which reranker reads up to 64 documents in one context window?'
    for (const hosts of [{ only_hostnames: ['example.org'] }, { bad_hostnames: ['localhost'] }]) {
      const { chunks } = await streamed(key.apiKey, ask(question, hosts))
      const last = chunks.at(-1)!
      expect(last.readURLs).toEqual([])
      expect(last.choices[0].delta.annotations).toEqual([])
    }
  })
})

describe('deep search refusals', () => {
  it('refuses a missing key with 401 and an empty one with 402, as HTTP answers before any stream', async () => {
    const question = ask('What is the reader?', { stream: true })
    expect((await call('POST', '/v1/chat/completions', { json: question })).status).toBe(401)
    const empty = await keyWithBalance(api.database.db, 0)
    expect(await call('POST', '/v1/chat/completions', { bearer: empty.apiKey, json: question })).toMatchObject({
      status: 402,
      body: { detail: 'Insufficient balance' },
    })
  })

  it('refuses malformed requests with 422 naming the field', async () => {
    const key = await keyWithBalance(api.database.db, 10_000)
    const cases: Array<[unknown, string]> = [
      [{ model: 'deepsearch-v1' }, 'messages'],
      [{ model: 'gpt-4', messages: [{ role: 'user', content: 'x' }] }, 'model'],
      [ask('x', { reasoning_effort: 'extreme' }), 'reasoning_effort'],
      [ask('x', { budget_tokens: 10 }), 'budget_tokens'],
      [ask('x', { max_attempts: 0 }), 'max_attempts'],
      [ask('x', { only_hostnames: ['not a host'] }), 'only_hostnames'],
      [{ model: 'deepsearch-v1', messages: [{ role: 'assistant', content: 'hi' }] }, 'messages'],
    ]
    for (const [json, field] of cases) {
      const { status, body } = await call('POST', '/v1/chat/completions', { bearer: key.apiKey, json })
      expect(status, JSON.stringify(json)).toBe(422)
      expect(body.detail.map((issue: { loc: string[] }) => issue.loc.join('.'))).toContainEqual(
        expect.stringContaining(field),
      )
    }
  })

  it('ends a stream whose key runs dry with an error chunk and [DONE], never driving the balance below zero', async () => {
    const question = ask('What do the news posts say about DeepSearch, ReaderLM-v2 and embeddings v4?', {
      max_attempts: 3,
    })
    const rich = await keyWithBalance(api.database.db, 1_000_000)
    const full = (await streamed(rich.apiKey, question)).chunks.at(-1)!.usage!.total_tokens
    expect(full).toBeGreaterThan(600)
    const poor = await keyWithBalance(api.database.db, 500)
    const { chunks, done } = await streamed(poor.apiKey, question)
    expect(done).toBe(true)
    const last = chunks.at(-1)!
    expect(last.choices[0]).toMatchObject({
      finish_reason: 'error',
      delta: { type: 'error', content: '402: Insufficient balance' },
    })
    const balance = await api.balanceOf(poor.id)
    expect(balance).toBeGreaterThanOrEqual(0)
    expect(balance).toBeLessThan(500)
  })
})
