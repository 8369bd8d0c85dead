import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { completionChunk, type CompletionChunk } from '~/contracts/deepsearch'
import { readEvents } from '~/lib/event-stream/parse'
import { call, keyWithBalance, respond } from '../support/api'
import { apiWithWeb } from '../support/api-with-web'

/** The chat options OpenAI's SDKs and the original's clients send: honoured, refused with a 422, or named. */
const api = apiWithWeb({ READER_ALLOW_PRIVATE_NETWORKS: 'true', DEEPSEARCH_ENGINE: 'builtin' })

const question = 'Which reranker reads up to 64 documents in one context window?'
const ask = (extra: Record<string, unknown> = {}) => ({
  model: 'deepsearch-v1',
  messages: [{ role: 'user', content: question }],
  ...extra,
})

async function streamed(extra: Record<string, unknown>) {
  const key = await keyWithBalance(api.database.db, 1_000_000)
  const response = await respond('POST', '/v1/chat/completions', {
    bearer: key.apiKey,
    json: ask({ ...extra, stream: true }),
  })
  expect(response.status).toBe(200)
  const chunks: CompletionChunk[] = []
  for await (const event of readEvents(response.body!)) {
    if (event.data !== '[DONE]') chunks.push(v.parse(completionChunk, JSON.parse(event.data)))
  }
  return { chunks, response, key }
}

const completion = async (extra: Record<string, unknown>) => {
  const key = await keyWithBalance(api.database.db, 1_000_000)
  return call('POST', '/v1/chat/completions', { bearer: key.apiKey, json: ask(extra) })
}

describe('deep search options', () => {
  it('honours stream_options.include_usage: a last chunk with no choices carries the usage', async () => {
    const { chunks } = await streamed({ stream_options: { include_usage: true } })
    const last = chunks.at(-1)!
    expect(last.choices).toEqual([])
    expect(last.usage).toEqual(chunks.at(-2)!.usage)
    expect(last.usage!.total_tokens).toBeGreaterThan(0)
    const without = await streamed({})
    expect(without.chunks.at(-1)!.choices[0].finish_reason).toBe('stop')
  })

  it('honours max_tokens and max_completion_tokens: it stops at the limit with finish_reason "length"', async () => {
    for (const limit of [{ max_tokens: 40 }, { max_completion_tokens: 40 }]) {
      const { chunks, key } = await streamed(limit)
      const last = chunks.at(-1)!
      expect(last.choices[0].finish_reason).toBe('length')
      expect(last.usage!.completion_tokens).toBeLessThanOrEqual(40)
      expect(await api.balanceOf(key.id)).toBe(1_000_000 - last.usage!.total_tokens)
    }
    const { body } = await completion({ max_tokens: 40 })
    expect(body.choices[0].finish_reason).toBe('length')
  })

  it('honours max_returned_urls: the answer cites at most that many sources', async () => {
    const { chunks } = await streamed({ max_returned_urls: 1, reasoning_effort: 'high' })
    expect(chunks.at(-1)!.choices[0].delta.annotations).toHaveLength(1)
  })

  it('names temperature, top_p, user and unknown fields as not applied', async () => {
    const { status, response } = await completion({ temperature: 0.2, top_p: 0.9, user: 'u-1', seed: 4 })
    expect(status).toBe(200)
    expect(response.headers.get('x-options-not-applied')).toBe('temperature, top_p, user, seed')
    expect(response.headers.get('x-engine')).toBe('deepsearch:builtin')
    const { response: stream } = await streamed({ temperature: 0 })
    expect(stream.headers.get('x-options-not-applied')).toBe('temperature')
  })

  it('honours response_format text and refuses JSON formats with a 422 saying why', async () => {
    expect((await completion({ response_format: { type: 'text' } })).status).toBe(200)
    const json = await completion({ response_format: { type: 'json_object' } })
    expect(json.status).toBe(422)
    expect(json.body.detail[0].loc).toEqual(['body', 'response_format'])
    expect(json.body.detail[0].msg).toMatch(/prose with citations, not JSON/)
  })

  it('reads tool messages as context, and refuses image and file parts with a 422 saying so', async () => {
    const withTool = await completion({
      messages: [
        { role: 'user', content: 'Look up the reranker.' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f' } }] },
        { role: 'tool', tool_call_id: 'c1', content: 'reranker-v3 is listwise' },
        { role: 'user', content: question },
      ],
    })
    expect(withTool.status).toBe(200)
    for (const part of [
      { type: 'image_url', image_url: { url: 'https://example.com/a.png' } },
      { type: 'file', file: { file_id: 'f' } },
    ]) {
      const refused = await completion({
        messages: [{ role: 'user', content: [{ type: 'text', text: question }, part] }],
      })
      expect(refused.status).toBe(422)
      expect(refused.body.detail[0].msg).toMatch(/deep search reads text only/)
    }
  })
})
