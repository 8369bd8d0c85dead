import { JinaClient } from '@agentic/jina'
import ky from 'ky'
import { afterAll, describe, expect, it } from 'vitest'
import { apiDatabase, keyWithBalance, send } from '../support/api'
import { serveAppOnLoopback, type AppOnLoopback } from '../support/app-on-loopback'

/**
 * Issue 41, item 6: the original search's clients against this server as the search host `s.jina.ai`, its
 * built-in engine answering this site's own pages (served on loopback as PUBLIC_BASE_URL, so each result is
 * read over HTTP as `npm start` reads it). `@agentic/jina` 7.6.9 runs as it is; `jina-mcp-tools` 1.2.3's
 * `jina_search` cannot change its host, so its exact request (`dist/search.js`: GET `/?q=`, JSON, no content,
 * `X-Site`) is replayed.
 */
let app: AppOnLoopback
const database = apiDatabase({
  env: async () => {
    app = await serveAppOnLoopback()
    return {
      PUBLIC_BASE_URL: app.origin,
      READER_ALLOW_PRIVATE_NETWORKS: 'true',
      READER_CACHE_TTL_SECONDS: '3600',
      SEARCH_HOST: 's.jina.ai',
    }
  },
})
afterAll(() => app?.close())

const freshKey = async () => (await keyWithBalance(database.db, 1_000_000)).apiKey

describe('@agentic/jina search', () => {
  it('answers the JSON envelope with each result read into content, and the text form', async () => {
    const jina = new JinaClient({
      apiKey: await freshKey(),
      throttle: false,
      ky: ky.create({
        fetch: (input, init) => send(input instanceof Request ? input : new Request(input, init)),
        retry: 0,
      }),
    })
    const found = (await jina.search({ query: 'reranker', json: true })) as {
      code: number
      data: Array<{ title: string; url: string; content: string; usage: { tokens: number } }>
    }
    expect(found.code).toBe(200)
    expect(found.data.length).toBeGreaterThan(0)
    expect(found.data[0].url).toBe(`${app.origin}/reranker`)
    expect(found.data[0].content).toMatch(/rerank/i)
    expect(found.data[0].usage.tokens).toBeGreaterThan(0)

    const text = (await jina.search('embeddings')) as string
    expect(text).toMatch(/^\[1\] Title: .+\n\[1\] URL Source: http:\/\/127\.0\.0\.1:\d+\//)
    expect(text).toContain('[1] Markdown Content:')
  })
})

describe("jina-mcp-tools' jina_search (replayed)", () => {
  it('lists results without their content, within the site asked for', async () => {
    const response = await send(
      new Request(`https://s.jina.ai/?q=${encodeURIComponent('embeddings model')}`, {
        headers: {
          Accept: 'application/json',
          'X-Respond-With': 'no-content',
          'X-Site': new URL(app.origin).hostname,
          Authorization: `Bearer ${await freshKey()}`,
        },
      }),
    )
    expect(response.status).toBe(200)
    const answer = (await response.json()) as { code: number; data: Array<Record<string, unknown>> }
    expect(answer.code).toBe(200)
    expect(answer.data.length).toBeGreaterThan(0)
    for (const result of answer.data) {
      expect(result).toMatchObject({ title: expect.any(String), url: expect.stringContaining(app.origin) })
      expect(result).not.toHaveProperty('content')
    }
  })
})
