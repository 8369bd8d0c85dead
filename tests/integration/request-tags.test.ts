import { describe, expect, it } from 'vitest'
import { apiDatabase, call, keyWithBalance } from '../support/api'

const database = apiDatabase()

const embed = (bearer: string, input: string[], tag?: string) =>
  call('POST', '/v1/embeddings', {
    bearer,
    json: { model: 'embeddings-v3', input },
    headers: tag === undefined ? {} : { 'x-request-tag': tag },
  })

describe('X-Request-Tag', () => {
  it('is kept with each request: a filter of the request log and its export, and a group of the usage summary', async () => {
    const key = await keyWithBalance(database.db, 100_000)
    const search = await embed(key.apiKey, ['one passage for the search team'], 'team:search')
    expect(search.status).toBe(200)
    expect(
      (await embed(key.apiKey, ['another passage for the search team', 'and one more'], 'team:search')).status,
    ).toBe(200)
    expect((await embed(key.apiKey, ['a passage for support'], 'team:support')).status).toBe(200)
    expect((await embed(key.apiKey, ['untagged'])).status).toBe(200)

    const tagged = await call('GET', '/api/v1/requests', { bearer: key.apiKey, query: { tag: 'team:search' } })
    expect(tagged.status).toBe(200)
    expect(tagged.body.requests).toHaveLength(2)
    expect(tagged.body.requests.every((row: { tag: string }) => row.tag === 'team:search')).toBe(true)

    const all = await call('GET', '/api/v1/requests', { bearer: key.apiKey })
    expect(all.body.requests.map((row: { tag: string | null }) => row.tag)).toEqual([
      null,
      'team:support',
      'team:search',
      'team:search',
    ])

    const exported = await call('GET', '/api/v1/requests/export', {
      bearer: key.apiKey,
      query: { tag: 'team:support', format: 'csv' },
    })
    const lines = String(exported.body).trim().split(/\r?\n/)
    expect(lines[0].split(',').at(-1)).toBe('tag')
    expect(lines).toHaveLength(2)
    expect(lines[1].split(',').at(-1)).toBe('team:support')

    const summary = await call('GET', '/api/v1/billing/usage_summary', { bearer: key.apiKey })
    expect(summary.status).toBe(200)
    const searchTokens = tagged.body.requests.reduce(
      (sum: number, row: { input_tokens: number }) => sum + row.input_tokens,
      0,
    )
    expect(summary.body.by_tag).toEqual([
      expect.objectContaining({ tag: 'team:search', requests: 2, refused: 0, tokens: searchTokens }),
      expect.objectContaining({ tag: 'team:support', requests: 1, refused: 0 }),
    ])
  })

  it("takes a deep search's tag from OpenAI's metadata map too, the header first when both are sent", async () => {
    const key = await keyWithBalance(database.db, 1_000_000)
    const ask = (headers: Record<string, string>) =>
      call('POST', '/v1/chat/completions', {
        bearer: key.apiKey,
        headers,
        json: {
          model: 'deepsearch-v1',
          reasoning_effort: 'low',
          metadata: { tag: 'agent-7' },
          messages: [{ role: 'user', content: 'What does a reranker do?' }],
        },
      })
    expect((await ask({})).status).toBe(200)
    expect((await ask({ 'x-request-tag': 'header-wins' })).status).toBe(200)
    const log = await call('GET', '/api/v1/requests', { bearer: key.apiKey })
    expect(log.body.requests.map((row: { tag: string }) => row.tag)).toEqual(['header-wins', 'agent-7'])
  })

  it('refuses a malformed tag with 422 naming the header, before any work or charge', async () => {
    const key = await keyWithBalance(database.db, 1_000)
    for (const tag of ['', 'has space', 'x'.repeat(65), '-leading', 'ünïcode']) {
      const refused = await embed(key.apiKey, ['some text'], tag)
      expect(refused.status, tag).toBe(422)
      expect(refused.body.detail).toEqual([expect.objectContaining({ loc: ['header', 'x-request-tag'] })])
    }
    const balance = await call('GET', '/api/v1/billing/usage_summary', { bearer: key.apiKey })
    expect(balance.body.balance.current).toBe(1_000)
  })
})
