import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { rateLimitTiers } from '#config'
import { applyEntry } from '~/server/domain/ledger'
import { call, keyWithBalance, respond, scalar, apiDatabase } from '../support/api'
import { eventsOf } from '../support/api-with-web'
import { serveAppOnLoopback, type AppOnLoopback } from '../support/app-on-loopback'
import { startWebFixtures, type WebFixtures } from '../support/web-fixtures'

/**
 * The search endpoint in the original's (s.jina.ai) shapes: `GET /s/<query>`, `POST /s`, SEARCH_HOST. The
 * built-in engine answers this site's pages, read over HTTP from the app itself on loopback (its
 * PUBLIC_BASE_URL, as `npm start` serves it); the upstream engine asks a fake SearXNG on loopback, whose
 * results are the web fixtures.
 */
let app: AppOnLoopback
let web: WebFixtures
let searxng: Server
let searxngAnswer: (query: URLSearchParams) => { status: number; body: unknown }
const searxngAsked: URLSearchParams[] = []

const database = apiDatabase({
  env: async () => {
    app = await serveAppOnLoopback()
    web = await startWebFixtures()
    searxng = createServer((request, response) => {
      const query = new URL(request.url ?? '/', 'http://x').searchParams
      searxngAsked.push(query)
      const { status, body } = searxngAnswer(query)
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body))
    })
    await new Promise<void>((resolve) => searxng.listen(0, '127.0.0.1', resolve))
    return {
      PUBLIC_BASE_URL: app.origin,
      READER_ALLOW_PRIVATE_NETWORKS: 'true',
      // Each site page is rendered once, then read from the cache by the next test that finds it.
      READER_CACHE_TTL_SECONDS: '3600',
      SEARCH_HOST: 's.example.test',
      SEARCH_API_URL: `http://127.0.0.1:${(searxng.address() as AddressInfo).port}/search`,
    }
  },
})
afterAll(async () => {
  searxng?.closeAllConnections()
  await new Promise((resolve) => searxng?.close(resolve))
  await web?.close()
  await app?.close()
})
beforeEach(() => {
  web.hits.length = 0
  searxngAsked.length = 0
})

const json = { accept: 'application/json' }
const ledgerRows = (keyId: string) =>
  scalar(database.db, sql`select count(*) from ledger_entries where key_id = ${keyId}::uuid and type = 'consume'`)
const balanceOf = (keyId: string) => scalar(database.db, sql`select balance from api_keys where id = ${keyId}::uuid`)

describe('the built-in engine: this site’s own pages, read through the reader', () => {
  it('answers GET /s/<query> as JSON in the original’s shape, each result read from the site', async () => {
    const { status, body, response } = await call('GET', '/s/reranker', { headers: json })
    expect(status).toBe(200)
    expect(body).toMatchObject({ code: 200, status: 20000, meta: { usage: { tokens: expect.any(Number) } } })
    expect(body.data.length).toBeGreaterThan(0)
    expect(body.data.length).toBeLessThanOrEqual(5)
    for (const result of body.data) {
      expect(result.url.startsWith(`${app.origin}/`)).toBe(true)
      expect(result).toMatchObject({ title: expect.any(String), description: expect.any(String) })
      expect(result.content).toEqual(expect.any(String))
      expect(result.usage.tokens).toEqual(expect.any(Number))
    }
    // The product and model pages as the reader reads them (news pages need the built app's server functions).
    const pages = body.data.filter((result: { url: string }) => !result.url.includes('/news/'))
    expect(pages.length).toBeGreaterThan(0)
    for (const result of pages) expect(result.content.length, result.url).toBeGreaterThan(50)
    expect(body.data.some((result: { url: string }) => result.url.endsWith('/reranker'))).toBe(true)
    // Read over HTTP from the site itself, through the reader.
    expect(app.hits.some((path) => path === '/reranker')).toBe(true)
    const content = body.data.reduce((sum: number, r: { usage: { tokens: number } }) => sum + r.usage.tokens, 0)
    expect(body.meta.usage.tokens).toBe(Math.max(10_000, content))
    expect(response.headers.get('x-usage-tokens')).toBe(String(body.meta.usage.tokens))
    // The file's first search renders five of the site's pages in process for the first time (Vite compiles them):
    // 19 s beside another file, over 60 s on the embedded database beside the browser tests.
  }, 180_000)

  it('answers numbered text blocks by default', async () => {
    const { status, body, response } = await call('GET', '/s/reranker?count=2')
    expect(status).toBe(200)
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/)
    expect(body).toMatch(/^\[1\] Title: .+\n\[1\] URL Source: http:\/\/127\.0\.0\.1:\d+\/.+\n\[1\] Description: .+\n/)
    expect(body).toContain('\n[1] Markdown Content:\n')
    expect(body).toMatch(/\n\n\[2\] Title: /)
    expect(body).not.toContain('[3] Title:')
  })

  it('takes count (and num), clamps it, and POST /s with the query in the body', async () => {
    expect((await call('GET', '/s/model?count=1', { headers: json })).body.data).toHaveLength(1)
    expect((await call('GET', '/s/model?count=4&num=2', { headers: json })).body.data).toHaveLength(2)
    const many = await call('GET', '/s/model?count=500', { headers: { ...json, 'x-respond-with': 'no-content' } })
    expect(many.status).toBe(200)
    expect(many.body.data.length).toBeGreaterThan(5)
    expect(many.body.data.length).toBeLessThanOrEqual(20)
    const posted = await call('POST', '/s', { headers: json, json: { q: 'reranker', count: 2 } })
    expect(posted.status).toBe(200)
    expect(posted.body.data).toHaveLength(2)
    const form = await call('POST', '/s', { headers: json, form: { q: 'reranker', count: '1' } })
    expect(form.body.data).toHaveLength(1)
  })

  it('keeps to type=news and to a site (site= or X-Site)', async () => {
    const news = await call('GET', '/s/reranker?type=news', { headers: { ...json, 'x-respond-with': 'no-content' } })
    expect(news.body.data.length).toBeGreaterThan(0)
    for (const result of news.body.data) expect(new URL(result.url).pathname).toMatch(/^\/news\//)
    const elsewhere = await call('GET', '/s/reranker?site=example.com', { headers: json })
    expect(elsewhere.status).toBe(422)
    expect(elsewhere.body).toMatchObject({ code: 422, name: 'AssertionFailureError', data: null })
    expect(elsewhere.body.detail).toBe('No search results available for query reranker')
    const here = await call('GET', '/s/reranker', {
      headers: { ...json, 'x-site': '127.0.0.1', 'x-respond-with': 'no-content' },
    })
    expect(here.status).toBe(200)
  })

  it('lists results without reading them with X-Respond-With: no-content, for the minimum', async () => {
    app.hits.length = 0
    const { body } = await call('GET', '/s/reranker', { headers: { ...json, 'x-respond-with': 'no-content' } })
    expect(body.meta.usage.tokens).toBe(10_000)
    for (const result of body.data) {
      expect(Object.keys(result).sort()).toEqual(expect.arrayContaining(['description', 'title', 'url']))
      expect(result).not.toHaveProperty('content')
      expect(result).not.toHaveProperty('usage')
    }
    expect(app.hits.filter((path) => !path.startsWith('/s'))).toEqual([])
    const text = await call('GET', '/s/reranker?count=1', { headers: { 'x-respond-with': 'no-content' } })
    expect(text.body).toMatch(
      /^\[1\] Title: .+\n\[1\] URL Source: .+\n\[1\] Description: .+\n(\[1\] Published Time: .+\n)?$/,
    )
  })

  it('passes the reader’s headers to every read: formats, X-Retain-Images', async () => {
    const { body } = await call('GET', '/s/reranker?count=1', { headers: { ...json, 'x-respond-with': 'html' } })
    expect(body.data[0].html).toMatch(/<html/i)
    expect(body.data[0]).not.toHaveProperty('content')
    const posted = await call('POST', '/s', { headers: json, json: { q: 'reranker', count: 1, respondWith: 'text' } })
    expect(posted.body.data[0].text.length).toBeGreaterThan(20)
  })

  it('streams the results read so far as data events', async () => {
    const stream = await respond('GET', '/s/reranker?count=2', { headers: { accept: 'text/event-stream' } })
    expect(stream.status).toBe(200)
    const events = await eventsOf(stream)
    expect(events.every((event) => event.event === 'data')).toBe(true)
    const last = JSON.parse(events.at(-1)!.data)
    expect(last).toHaveLength(2)
    expect(last[0].content.length).toBeGreaterThan(50)
  })
})

describe('metering: once per request, at least 10,000 tokens', () => {
  it('charges a keyed search once, its results’ tokens or the minimum', async () => {
    const key = await keyWithBalance(database.db, 1_000_000)
    const { status, body } = await call('GET', '/s/reranker', { bearer: key.apiKey, headers: json })
    expect(status).toBe(200)
    expect(await ledgerRows(key.id)).toBe(1)
    expect(await balanceOf(key.id)).toBe(1_000_000 - body.meta.usage.tokens)
    const listed = await call('GET', '/s/reranker', {
      bearer: key.apiKey,
      headers: { ...json, 'x-respond-with': 'no-content' },
    })
    expect(listed.status).toBe(200)
    expect(await ledgerRows(key.id)).toBe(2)
    expect(await balanceOf(key.id)).toBe(1_000_000 - body.meta.usage.tokens - 10_000)
  })

  it('replays a POST sent again with its Idempotency-Key at balance 0, charged once', async () => {
    const key = await keyWithBalance(database.db, 1_000_000)
    const init = {
      bearer: key.apiKey,
      headers: { ...json, 'idempotency-key': `search-${crypto.randomUUID()}` },
      json: { q: 'reranker', count: 1 },
    }
    const first = await call('POST', '/s', init)
    expect(first.status).toBe(200)
    const left = await balanceOf(key.id)
    await applyEntry(database.db, {
      keyId: key.id,
      amount: -left,
      type: 'consume',
      externalRef: `usage:drain:${key.id}`,
      product: 'test',
    })
    const replay = await call('POST', '/s', init)
    expect(replay.status).toBe(200)
    expect(replay.body).toEqual(first.body)
    expect(replay.response.headers.get('idempotent-replayed')).toBe('true')
    // The search's debit and the drain.
    expect(await ledgerRows(key.id)).toBe(2)
    expect(await balanceOf(key.id)).toBe(0)
  })

  it('charges a stream through the meter, what it answered and no more', async () => {
    const key = await keyWithBalance(database.db, 1_000_000)
    const stream = await respond('GET', '/s/reranker?count=2', {
      bearer: key.apiKey,
      headers: { accept: 'text/event-stream' },
    })
    const last = JSON.parse((await eventsOf(stream)).at(-1)!.data) as Array<{ usage: { tokens: number } }>
    const answered = Math.max(
      10_000,
      last.reduce((sum, result) => sum + result.usage.tokens, 0),
    )
    // The minimum's top-up is settled as the stream closes, so a read right after the last event may precede it.
    await expect.poll(() => balanceOf(key.id)).toBe(1_000_000 - answered)
    expect(await ledgerRows(key.id)).toBeGreaterThan(0)
  })

  it('refuses before any work: a key without tokens (402), an unknown key (401), a blown X-Token-Budget (409)', async () => {
    const empty = await keyWithBalance(database.db, 0)
    app.hits.length = 0
    const poor = await call('GET', '/s/reranker', { bearer: empty.apiKey, headers: json })
    expect(poor.status).toBe(402)
    expect(poor.body).toMatchObject({ code: 402, name: 'InsufficientBalanceError', detail: expect.any(String) })
    const unknown = await call('GET', '/s/reranker', { bearer: 'lds_not_a_key', headers: json })
    expect(unknown.status).toBe(401)
    expect(unknown.body).toMatchObject({ code: 401, name: 'AuthenticationRequiredError' })
    expect(app.hits.filter((path) => !path.startsWith('/s'))).toEqual([])
    const key = await keyWithBalance(database.db, 1_000_000)
    const budget = await call('GET', '/s/reranker', {
      bearer: key.apiKey,
      headers: { ...json, 'x-token-budget': '500' },
    })
    expect(budget.status).toBe(409)
    expect(budget.body.name).toBe('BudgetExceededError')
    expect(await balanceOf(key.id)).toBe(1_000_000)
  })

  it('answers without a key, per address at its own limit', async () => {
    const address = '198.51.100.23'
    const limit = rateLimitTiers.search.anonymous
    for (let i = 0; i < limit; i++) {
      const listed = await call('GET', `/s/model-${i}`, {
        address,
        headers: { ...json, 'x-respond-with': 'no-content' },
      })
      expect([200, 422]).toContain(listed.status)
    }
    const past = await call('GET', '/s/reranker', { address, headers: json })
    expect(past.status).toBe(429)
    expect(past.body).toMatchObject({ code: 429, name: 'RateLimitTriggeredError' })
  })
})

describe('refusals in {detail} and the original’s envelope', () => {
  it('refuses an empty query, a bad count, an unknown type and a format no model serves with 422', async () => {
    const cases: Array<[string, Record<string, string>]> = [
      ['/s/', {}],
      ['/s/%20', {}],
      ['/s/reranker?count=0', {}],
      ['/s/reranker?count=many', {}],
      ['/s/reranker?type=images', {}],
      ['/s/reranker', { 'x-respond-with': 'readerlm-v2' }],
      ['/s/reranker', { 'x-respond-with': 'poetry' }],
    ]
    for (const [i, [path, headers]] of cases.entries()) {
      // Each from its own address: seven searches are past the keyless limit (5 a minute).
      const address = `198.51.100.${40 + i}`
      const { status, body } = await call('GET', path, { address, headers: { ...json, ...headers } })
      expect(status, path).toBe(422)
      expect(body.detail, path).toBeDefined()
      expect(body, path).toMatchObject({
        data: null,
        code: 422,
        status: expect.any(Number),
        message: expect.any(String),
      })
    }
  })
})

describe('SEARCH_HOST: a host whose whole root is search', () => {
  const host = 'http://s.example.test'
  const listed = { ...json, 'x-respond-with': 'no-content' }

  it('searches /<query>, /?q=, /search?q= and POST /', async () => {
    for (const path of ['/reranker', '/?q=reranker', '/search?q=reranker']) {
      const { status, body } = await call('GET', `${host}${path}`, { headers: listed })
      expect(status, path).toBe(200)
      expect(body.data.length, path).toBeGreaterThan(0)
    }
    const posted = await call('POST', `${host}/`, { headers: listed, json: { q: 'reranker' } })
    expect(posted.status).toBe(200)
    expect(posted.body.meta.usage.tokens).toBe(10_000)
  })

  it("keeps the site's files and landing page", async () => {
    const robots = await respond('GET', `${host}/robots.txt`)
    expect(await robots.text()).toMatch(/User-agent/i)
    const landing = await respond('GET', `${host}/`, { headers: { accept: 'text/html' } })
    expect(landing.headers.get('content-type')).toMatch(/^text\/html/)
  })
})

describe('the upstream engine: SEARCH_API_URL, a SearXNG-style API', () => {
  beforeAll(() => {
    process.env.SEARCH_ENGINE = 'upstream'
  })
  afterAll(() => {
    delete process.env.SEARCH_ENGINE
  })
  beforeEach(() => {
    searxngAnswer = () => ({
      status: 200,
      body: {
        results: [
          { url: `http://127.0.0.1:${unusedPort}/gone`, title: 'Gone', content: 'Nobody answers here' },
          { url: web.url('/article'), title: 'Rerankers in practice', content: 'How a reranker lifts precision' },
          { url: web.url('/plain', 'localhost'), title: 'Plain', content: 'A plain page', publishedDate: '2025-01-02' },
          { url: 'ftp://example.org/file', title: 'Not http', content: '' },
        ],
      },
    })
  })

  it('reads the results through the reader, a spare one standing in for one that cannot be read', async () => {
    const { status, body } = await call('GET', '/s/rerankers+in+practice?count=2&gl=us&hl=en', { headers: json })
    expect(status).toBe(200)
    expect(body.data.map((result: { url: string }) => result.url)).toEqual([
      web.url('/article'),
      web.url('/plain', 'localhost'),
    ])
    expect(body.data[0]).toMatchObject({
      title: 'Rerankers in practice',
      description: 'How a reranker lifts precision',
    })
    expect(body.data[1].content).toContain('PLAIN-MARKER')
    expect(searxngAsked[0].get('q')).toBe('rerankers in practice')
    expect(searxngAsked[0].get('format')).toBe('json')
    expect(searxngAsked[0].get('language')).toBe('en-US')
  })

  it('keeps to a site, in the query it sends and in what it answers; news as SearXNG’s category', async () => {
    const { body } = await call('GET', '/s/plain?site=localhost&type=news', { headers: json })
    expect(searxngAsked[0].get('q')).toBe('plain site:localhost')
    expect(searxngAsked[0].get('categories')).toBe('news')
    expect(body.data.map((result: { url: string }) => result.url)).toEqual([web.url('/plain', 'localhost')])
    expect(body.data[0].publishedTime).toBe('2025-01-02')
  })

  it('reads nothing with no-content', async () => {
    const { body } = await call('GET', '/s/anything', { headers: { ...json, 'x-respond-with': 'no-content' } })
    expect(body.data).toHaveLength(3)
    expect(web.hits).toEqual([])
  })

  it('answers an unreadable result without content when no spare is left, and refuses an engine failure with 502', async () => {
    searxngAnswer = () => ({
      status: 200,
      body: {
        results: [{ url: `http://127.0.0.1:${unusedPort}/gone`, title: 'Gone', content: 'Nobody answers here' }],
      },
    })
    const alone = await call('GET', '/s/gone', { headers: json })
    expect(alone.status).toBe(200)
    expect(alone.body.data).toEqual([
      {
        title: 'Gone',
        url: `http://127.0.0.1:${unusedPort}/gone`,
        description: 'Nobody answers here',
        content: '',
        usage: { tokens: 0 },
      },
    ])
    expect(alone.body.meta.usage.tokens).toBe(10_000)
    searxngAnswer = () => ({ status: 500, body: { error: 'down' } })
    const down = await call('GET', '/s/anything', { headers: json })
    expect(down.status).toBe(502)
    expect(down.body).toMatchObject({ code: 502, name: 'ServiceBadAttemptError', detail: expect.any(String) })
  })
})

/** A loopback port nothing listens on: a result there cannot be read. */
let unusedPort = 9
beforeAll(async () => {
  const probe = createServer()
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve))
  unusedPort = (probe.address() as AddressInfo).port
  await new Promise((resolve) => probe.close(resolve))
})
