import { sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { call, keyWithBalance, respond, scalar, type CallInit } from '../support/api'
import { apiWithWeb, eventsOf } from '../support/api-with-web'

const api = apiWithWeb({ READER_ALLOW_PRIVATE_NETWORKS: 'true', READER_CACHE_TTL_SECONDS: '3600' })

const read = (url: string, init: CallInit = {}) => call('GET', `/r/${url}`, init)
const fresh = { 'x-no-cache': 'true' }
const json = { accept: 'application/json', ...fresh }

describe('the reader cache', () => {
  it('answers a page read again from the cache without fetching it, and X-No-Cache fetches it anew', async () => {
    const url = api.web.url('/article?cache-test')
    const first = await read(url, { headers: { accept: 'application/json' } })
    expect(first.response.headers.get('x-cache')).toBe('miss')
    const again = await read(url, { headers: { accept: 'application/json' } })
    expect(again.response.headers.get('x-cache')).toBe('hit')
    expect(again.body).toEqual(first.body)
    // The page's own query reached its server.
    expect(api.web.hits.filter((hit) => hit.path === '/article?cache-test')).toHaveLength(1)
    // Other options are another conversion, cached apart.
    await read(url, { headers: { accept: 'application/json', 'x-return-format': 'text' } })
    expect(api.web.hits.filter((hit) => hit.path === '/article?cache-test')).toHaveLength(2)
    const bypass = await read(url, { headers: { accept: 'application/json', 'x-no-cache': 'true' } })
    expect(bypass.response.headers.get('x-cache')).toBe('miss')
    expect(api.web.hits.filter((hit) => hit.path === '/article?cache-test')).toHaveLength(3)
  })

  it('answers a page longer than 2 MiB as usual but does not cache it (megabytes of JSON would hold the event loop)', async () => {
    const url = api.web.url('/long-text?kb=3000')
    for (let i = 0; i < 2; i++) {
      const { status, body, response } = await read(url, { headers: { accept: 'application/json' } })
      expect(status).toBe(200)
      expect(body.data.content.length).toBeGreaterThan(3_000_000)
      expect(response.headers.get('x-cache')).toBe('miss')
    }
    expect(await scalar(api.database.db, sql`select count(*) from reader_cache where url = ${url}`)).toBe(0)
    expect(api.web.hits.filter((hit) => hit.path === '/long-text?kb=3000')).toHaveLength(2)
  })

  it('fetches again once the cached copy is older than its time to live', async () => {
    const url = api.web.url('/article?ttl-test')
    await read(url, { headers: { accept: 'application/json' } })
    await api.database.db.execute(
      sql`update reader_cache set expires_at = now() - interval '1 second' where url = ${url}`,
    )
    const later = await read(url, { headers: { accept: 'application/json' } })
    expect(later.response.headers.get('x-cache')).toBe('miss')
    expect(api.web.hits.filter((hit) => hit.path === '/article?ttl-test')).toHaveLength(2)
    expect(await scalar(api.database.db, sql`select count(*) from reader_cache where url = ${url}`)).toBe(1)
  })
})

describe('reader limits, keys and metering', () => {
  it('reads without a key for free, 20 requests a minute per address, then 429 with Retry-After', async () => {
    const address = '198.51.100.20'
    for (let i = 0; i < 20; i++) {
      const { status, response } = await read(api.web.url('/plain'), { headers: json, address })
      expect(status).toBe(200)
      expect(response.headers.get('x-ratelimit-limit')).toBe('20')
    }
    const refused = await read(api.web.url('/plain'), { headers: json, address })
    expect(refused.status).toBe(429)
    expect(Number(refused.response.headers.get('retry-after'))).toBeGreaterThan(0)
    expect((await read(api.web.url('/plain'), { headers: json, address: '198.51.100.21' })).status).toBe(200)
  })

  it('charges a key the output tokens it reports, and a cached answer again', async () => {
    const key = await keyWithBalance(api.database.db, 100_000)
    const first = await read(api.web.url('/article?metered'), {
      bearer: key.apiKey,
      headers: { accept: 'application/json' },
    })
    expect(first.status).toBe(200)
    const tokens = first.body.data.usage.tokens
    expect(tokens).toBeGreaterThan(100)
    expect(await api.balanceOf(key.id)).toBe(100_000 - tokens)
    expect(first.response.headers.get('x-ratelimit-limit')).toBe('500')
    await read(api.web.url('/article?metered'), { bearer: key.apiKey, headers: { accept: 'application/json' } })
    expect(await api.balanceOf(key.id)).toBe(100_000 - 2 * tokens)
  })

  it('refuses a key with no tokens with 402 before fetching, and a key short of the page after converting it', async () => {
    const empty = await keyWithBalance(api.database.db, 0)
    expect(await read(api.web.url('/article?empty-key'), { bearer: empty.apiKey, headers: json })).toMatchObject({
      status: 402,
    })
    expect(api.web.hits).toEqual([])
    const short = await keyWithBalance(api.database.db, 10)
    expect((await read(api.web.url('/article?short-key'), { bearer: short.apiKey, headers: json })).status).toBe(402)
    expect(await api.balanceOf(short.id)).toBe(10)
    expect(
      (await read(api.web.url('/article'), { bearer: 'lds_not-a-key-0000000000000000000000', headers: json })).status,
    ).toBe(401)
  })

  it('charges a stream the largest snapshot it sent, and gives back the rest of what it reserved', async () => {
    const key = await keyWithBalance(api.database.db, 1_000_000)
    const response = await respond('GET', `/r/${api.web.url('/slow?parts=3&pause=400')}`, {
      bearer: key.apiKey,
      headers: { accept: 'text/event-stream', ...fresh },
    })
    const pages = (await eventsOf(response)).map((event) => JSON.parse(event.data))
    const largest = Math.max(...pages.map((page) => page.usage.tokens))
    expect(await api.balanceOf(key.id)).toBe(1_000_000 - largest)
  })

  it('gives up on a page that does not arrive within X-Timeout with 504, and on one over 10 MiB with 422', async () => {
    const started = Date.now()
    expect(await read(api.web.url('/stall'), { headers: { ...json, 'x-timeout': '1' } })).toMatchObject({
      status: 504,
      body: { detail: 'The page did not arrive within 1 s' },
    })
    expect(Date.now() - started).toBeLessThan(5000)
    for (const path of ['/big', '/bomb'])
      expect(await read(api.web.url(path), { headers: json })).toMatchObject({
        status: 422,
        body: { detail: "The page is larger than the reader's limit of 10 MiB" },
      })
    // Clamped to 180 s, and 0 the default, as the original takes them (not refused).
    expect((await read(api.web.url('/article'), { headers: { ...json, 'x-timeout': '0' } })).status).toBe(200)
    expect((await read(api.web.url('/article'), { headers: { ...json, 'x-timeout': '500' } })).status).toBe(200)
    expect((await read(api.web.url('/article'), { headers: { ...json, 'x-timeout': 'soon' } })).status).toBe(422)
  })

  it('follows redirects, answers the URL asked for (the URL it ended at with X-Base: final), and refuses endless ones', async () => {
    const { body } = await read(api.web.url('/chain?n=3&to=/article'), { headers: json })
    expect(body.data.url).toBe(api.web.url('/chain?n=3&to=/article'))
    const final = await read(api.web.url('/chain?n=3&to=/article'), { headers: { ...json, 'x-base': 'final' } })
    expect(final.body.data.url).toBe(api.web.url('/article'))
    expect(body.data.title).toBe('Rerankers in practice')
    expect(api.web.hits.at(-1)?.path).toBe('/article')
    expect(await read(api.web.url('/chain?n=6&to=/article'), { headers: json })).toMatchObject({
      status: 422,
      body: { detail: 'The page redirected more than 5 times' },
    })
  })

  it('takes the URL in a POST body, and refuses other schemes and invalid URLs with 422', async () => {
    const posted = await call('POST', '/r', { json: { url: api.web.url('/article') }, headers: json })
    expect(posted.status).toBe(200)
    expect(posted.body.data.title).toBe('Rerankers in practice')
    for (const url of [
      'file:///etc/passwd',
      'ftp://127.0.0.1/',
      'javascript:alert(1)',
      'data:text/html,hi',
      'gopher://x/',
    ])
      expect((await call('POST', '/r', { json: { url }, headers: json })).body.detail).toMatch(
        /^Only http and https URLs can be read, not \w+/,
      )
    expect(await call('POST', '/r', { json: { url: 'http://' }, headers: json })).toMatchObject({
      status: 422,
      body: { detail: 'is not a valid URL' },
    })
    expect((await call('POST', '/r', { json: { url: '' }, headers: json })).status).toBe(422)
    expect((await call('POST', '/r', { json: {}, headers: json })).status).toBe(422)
    expect((await read(api.web.url('/article'), { headers: { ...json, 'x-return-format': 'pdf' } })).status).toBe(422)
  })
})
