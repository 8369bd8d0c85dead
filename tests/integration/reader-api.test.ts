import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { readerPage } from '~/contracts/reader'
import { readEvents } from '~/lib/event-stream/parse'
import { Route as readPathRoute } from '~/routes/r/$'
import { Route as readBodyRoute } from '~/routes/r/index'
import { countTokens } from '~/server/providers/inference/tokens'
import { resetRateLimits } from '~/server/providers/rate-limit-store'
import * as v from 'valibot'
import { call, keyWithBalance, respond, scalar, setupApi, testEnv } from '../support/api'
import { startWebFixtures, type WebFixtures } from '../support/web-fixtures'

testEnv({ READER_ALLOW_PRIVATE_NETWORKS: 'true', READER_CACHE_TTL_SECONDS: '3600' })
let database: Awaited<ReturnType<typeof setupApi>>
let web: WebFixtures
beforeAll(async () => {
  database = await setupApi()
  web = await startWebFixtures()
})
afterAll(async () => {
  await web.close()
  await database.close()
})
beforeEach(() => {
  resetRateLimits()
  web.hits.length = 0
})

const read = (url: string, init: Parameters<typeof call>[3] = {}) => call(readPathRoute, 'GET', `/r/${url}`, init)
const fresh = { 'x-no-cache': 'true' }
const json = { accept: 'application/json', ...fresh }
const balanceOf = (id: string) => scalar(database.db, sql`select balance from api_keys where id = ${id}::uuid`)

describe('GET /r/{url}: the answer formats', () => {
  it('answers text by default: title, source and the article as Markdown with absolute links', async () => {
    const { status, body, response } = await read(web.url('/article'), { headers: fresh })
    expect(status).toBe(200)
    expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8')
    expect(body).toMatch(
      /^Title: Rerankers in practice\n\nURL Source: http:\/\/127\.0\.0\.1:\d+\/article\n\nPublished Time: 2025-03-04T05:06:07\.000Z\n\nMarkdown Content:\n/,
    )
    expect(body).toContain('## Numbers')
    expect(body).toContain(`[reranks them](${web.url('/docs/1')})`)
    expect(body).toContain(`![A two-stage pipeline](${web.url('/images/pipeline.png')})`)
    expect(body).toContain('| Reranker | 61.9 |')
    // The article, not the page around it; never scripts or styles.
    expect(body).not.toMatch(/NAV-MARKER|FOOTER-MARKER|SCRIPT-MARKER|color: red/)
    expect(body).not.toContain('javascript:')
  })

  it('answers JSON with the metadata, the content and the output tokens it counted', async () => {
    const { status, body } = await read(web.url('/article'), { headers: json })
    expect(status).toBe(200)
    expect(body).toMatchObject({ code: 200, status: 20000 })
    const page = body.data
    expect(page).toMatchObject({
      title: 'Rerankers in practice',
      description: 'How a reranker lifts search precision.',
      url: web.url('/article'),
      publishedTime: '2025-03-04T05:06:07.000Z',
      links: {},
      images: {},
    })
    expect(page.usage.tokens).toBe(countTokens(page.content))
  })

  it('keeps the whole page when the article holds less than 0.3 of its Markdown', async () => {
    const { body } = await read(web.url('/list'), { headers: json })
    expect(body.data.content).toContain('INTRO-MARKER')
    expect(body.data.content).toContain('LIST-ITEM 59')
  })

  it('answers each X-Return-Format: the whole page as Markdown, the HTML, and the text', async () => {
    const markdown = (await read(web.url('/article'), { headers: { ...json, 'x-return-format': 'markdown' } })).body
      .data.content
    expect(markdown).toContain('NAV-MARKER')
    expect(markdown).toContain('FOOTER-MARKER')
    expect(markdown).not.toContain('SCRIPT-MARKER')

    const html = await read(web.url('/article'), { headers: { ...fresh, 'x-return-format': 'html' } })
    expect(html.body).toMatch(/^<!DOCTYPE html>\n<html lang="en"><head>/)
    expect(html.body).toContain(`<a href="${web.url('/docs/1')}">reranks them</a>`)
    expect(html.body).not.toContain('SCRIPT-MARKER')

    const text = await read(web.url('/article'), { headers: { ...fresh, 'x-return-format': 'text' } })
    expect(text.body).toContain('Rerankers in practice\n')
    expect(text.body).toContain(
      'Paragraph 1 explains how a search pipeline retrieves candidates, reranks them and keeps the best',
    )
    expect(text.body).toContain('BM25\t42.1')
    expect(text.body).not.toMatch(/[<>]|\*\*|\]\(/)
  })

  it('narrows to X-Target-Selector and drops X-Remove-Selector, and refuses a selector it cannot use', async () => {
    const target = await read(web.url('/article'), { headers: { ...json, 'x-target-selector': 'table, footer' } })
    expect(target.body.data.content).toContain('| BM25 | 42.1 |')
    expect(target.body.data.content).toContain('FOOTER-MARKER')
    expect(target.body.data.content).not.toContain('Paragraph 1')

    const removed = await read(web.url('/article'), {
      headers: { ...json, 'x-return-format': 'markdown', 'x-remove-selector': 'nav, .ad' },
    })
    expect(removed.body.data.content).not.toMatch(/NAV-MARKER|AD-MARKER/)
    expect(removed.body.data.content).toContain('FOOTER-MARKER')

    for (const [header, value, detail] of [
      ['x-target-selector', 'section.missing', 'X-Target-Selector matched no element of the page'],
      ['x-target-selector', 'div[', 'X-Target-Selector is not a valid CSS selector'],
      ['x-remove-selector', '>>>', 'X-Remove-Selector is not a valid CSS selector'],
    ])
      expect(await read(web.url('/article'), { headers: { ...json, [header]: value } })).toMatchObject({
        status: 422,
        body: { detail },
      })
  })

  it('adds the links and images summaries when asked, in the text and in JSON', async () => {
    const headers = { 'x-with-links-summary': 'true', 'x-with-images-summary': 'true' }
    const { body } = await read(web.url('/article'), { headers: { ...json, ...headers } })
    expect(body.data.links).toMatchObject({
      'reranks them': web.url('/docs/1'),
      'the paper': 'https://example.org/paper',
    })
    expect(body.data.links).not.toHaveProperty('nowhere')
    expect(body.data.images).toEqual({ 'A two-stage pipeline': web.url('/images/pipeline.png') })
    const text = (await read(web.url('/article'), { headers: { ...fresh, ...headers } })).body
    expect(text).toContain(`Links/Buttons:\n- [NAV-MARKER home](${web.url('/')})`)
    expect(text).toContain(`Images:\n- ![A two-stage pipeline](${web.url('/images/pipeline.png')})`)
    expect(body.data.usage.tokens).toBeGreaterThan(countTokens(body.data.content))
  })

  it('reads plain text, JSON, gzip and Latin-1 pages, and refuses what it cannot convert with 422', async () => {
    expect((await read(web.url('/plain'), { headers: json })).body.data.content).toBe(
      'PLAIN-MARKER\nJust text, kept as it is.',
    )
    expect((await read(web.url('/json'), { headers: json })).body.data.content).toBe(
      '```json\n{\n  "marker": "JSON-MARKER",\n  "items": [\n    1,\n    2\n  ]\n}\n```',
    )
    expect((await read(web.url('/gzip'), { headers: json })).body.data.title).toBe('Rerankers in practice')
    const latin1 = (await read(web.url('/latin1'), { headers: json })).body.data
    expect(latin1.title).toBe('Café')
    expect(latin1.content).toContain('Crème brûlée au café, servie tiède.')
    expect(await read(web.url('/pdf'), { headers: json })).toMatchObject({
      status: 422,
      body: { detail: expect.stringContaining('application/pdf, which the reader cannot convert') },
    })
    expect((await read(web.url('/image'), { headers: json })).status).toBe(422)
    expect(await read(web.url('/status?code=404'), { headers: json })).toMatchObject({
      status: 422,
      body: { detail: 'The page answered HTTP 404' },
    })
  })
})

/** The snapshots of an event-stream answer, read with the site's shared event-stream client. */
async function snapshots(response: Response) {
  const events = []
  for await (const event of readEvents(response.body!)) events.push(event)
  return events
}

describe('GET /r/{url} as an event stream', () => {
  it('sends completer snapshots while a slow page downloads, parsed by the shared client, the last one whole', async () => {
    const response = await respond(readPathRoute, 'GET', `/r/${web.url('/slow?parts=4&pause=400')}`, {
      headers: { accept: 'text/event-stream', ...fresh },
    })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8')
    const events = await snapshots(response)
    expect(events.length).toBeGreaterThanOrEqual(3)
    expect(new Set(events.map((event) => event.event))).toEqual(new Set(['data']))
    const pages = events.map((event) => v.parse(readerPage, JSON.parse(event.data)))
    const lengths = pages.map((page) => page.content.length)
    expect(lengths).toEqual([...lengths].sort((a, b) => a - b))
    expect(lengths[0]).toBeLessThan(lengths.at(-1)!)
    const whole = (await read(web.url('/slow?parts=4&pause=400'), { headers: json })).body.data
    expect(pages.at(-1)).toEqual(whole)
  })

  it('ends a stream that fails after it began with an error event the client throws as its status', async () => {
    const response = await respond(readPathRoute, 'GET', `/r/${web.url('/pdf')}`, {
      headers: { accept: 'text/event-stream', ...fresh },
    })
    const events = await snapshots(response)
    expect(events).toEqual([{ event: 'error', data: expect.stringContaining('"code":422') }])
  })
})

describe('the reader cache', () => {
  it('answers a page read again from the cache without fetching it, and X-No-Cache fetches it anew', async () => {
    const url = web.url('/article?cache-test')
    const first = await read(url, { headers: { accept: 'application/json' } })
    expect(first.response.headers.get('x-cache')).toBe('miss')
    const again = await read(url, { headers: { accept: 'application/json' } })
    expect(again.response.headers.get('x-cache')).toBe('hit')
    expect(again.body).toEqual(first.body)
    // The page's own query reached its server.
    expect(web.hits.filter((hit) => hit.path === '/article?cache-test')).toHaveLength(1)
    // Other options are another conversion, cached apart.
    await read(url, { headers: { accept: 'application/json', 'x-return-format': 'text' } })
    expect(web.hits.filter((hit) => hit.path === '/article?cache-test')).toHaveLength(2)
    const bypass = await read(url, { headers: { accept: 'application/json', 'x-no-cache': 'true' } })
    expect(bypass.response.headers.get('x-cache')).toBe('miss')
    expect(web.hits.filter((hit) => hit.path === '/article?cache-test')).toHaveLength(3)
  })

  it('fetches again once the cached copy is older than its time to live', async () => {
    const url = web.url('/article?ttl-test')
    await read(url, { headers: { accept: 'application/json' } })
    await database.db.execute(sql`update reader_cache set expires_at = now() - interval '1 second' where url = ${url}`)
    const later = await read(url, { headers: { accept: 'application/json' } })
    expect(later.response.headers.get('x-cache')).toBe('miss')
    expect(web.hits.filter((hit) => hit.path === '/article?ttl-test')).toHaveLength(2)
    expect(await scalar(database.db, sql`select count(*) from reader_cache where url = ${url}`)).toBe(1)
  })
})

describe('reader limits, keys and metering', () => {
  it('reads without a key for free, 20 requests a minute per address, then 429 with Retry-After', async () => {
    const address = '198.51.100.20'
    for (let i = 0; i < 20; i++) {
      const { status, response } = await read(web.url('/plain'), { headers: json, address })
      expect(status).toBe(200)
      expect(response.headers.get('x-ratelimit-limit')).toBe('20')
    }
    const refused = await read(web.url('/plain'), { headers: json, address })
    expect(refused.status).toBe(429)
    expect(Number(refused.response.headers.get('retry-after'))).toBeGreaterThan(0)
    expect((await read(web.url('/plain'), { headers: json, address: '198.51.100.21' })).status).toBe(200)
  })

  it('charges a key the output tokens it reports, and a cached answer again', async () => {
    const key = await keyWithBalance(database.db, 100_000)
    const first = await read(web.url('/article?metered'), {
      bearer: key.apiKey,
      headers: { accept: 'application/json' },
    })
    expect(first.status).toBe(200)
    const tokens = first.body.data.usage.tokens
    expect(tokens).toBeGreaterThan(100)
    expect(await balanceOf(key.id)).toBe(100_000 - tokens)
    expect(first.response.headers.get('x-ratelimit-limit')).toBe('500')
    await read(web.url('/article?metered'), { bearer: key.apiKey, headers: { accept: 'application/json' } })
    expect(await balanceOf(key.id)).toBe(100_000 - 2 * tokens)
  })

  it('refuses a key with no tokens with 402 before fetching, and a key short of the page after converting it', async () => {
    const empty = await keyWithBalance(database.db, 0)
    expect(await read(web.url('/article?empty-key'), { bearer: empty.apiKey, headers: json })).toMatchObject({
      status: 402,
    })
    expect(web.hits).toEqual([])
    const short = await keyWithBalance(database.db, 10)
    expect((await read(web.url('/article?short-key'), { bearer: short.apiKey, headers: json })).status).toBe(402)
    expect(await balanceOf(short.id)).toBe(10)
    expect(
      (await read(web.url('/article'), { bearer: 'lds_not-a-key-0000000000000000000000', headers: json })).status,
    ).toBe(401)
  })

  it('charges a stream the largest snapshot it sent, and gives back the rest of what it reserved', async () => {
    const key = await keyWithBalance(database.db, 1_000_000)
    const response = await respond(readPathRoute, 'GET', `/r/${web.url('/slow?parts=3&pause=400')}`, {
      bearer: key.apiKey,
      headers: { accept: 'text/event-stream', ...fresh },
    })
    const pages = (await snapshots(response)).map((event) => JSON.parse(event.data))
    const largest = Math.max(...pages.map((page) => page.usage.tokens))
    expect(await balanceOf(key.id)).toBe(1_000_000 - largest)
  })

  it('gives up on a page that does not arrive within X-Timeout with 504, and on one over 10 MiB with 422', async () => {
    const started = Date.now()
    expect(await read(web.url('/stall'), { headers: { ...json, 'x-timeout': '1' } })).toMatchObject({
      status: 504,
      body: { detail: 'The page did not arrive within 1 s' },
    })
    expect(Date.now() - started).toBeLessThan(5000)
    for (const path of ['/big', '/bomb'])
      expect(await read(web.url(path), { headers: json })).toMatchObject({
        status: 422,
        body: { detail: "The page is larger than the reader's limit of 10 MiB" },
      })
    expect((await read(web.url('/article'), { headers: { ...json, 'x-timeout': '0' } })).status).toBe(422)
    expect((await read(web.url('/article'), { headers: { ...json, 'x-timeout': '500' } })).status).toBe(422)
  })

  it('follows redirects and answers the URL it ended at, and refuses endless ones', async () => {
    const { body } = await read(web.url('/chain?n=3&to=/article'), { headers: json })
    expect(body.data.url).toBe(web.url('/article'))
    expect(body.data.title).toBe('Rerankers in practice')
    expect(web.hits.at(-1)?.path).toBe('/article')
    expect(await read(web.url('/chain?n=6&to=/article'), { headers: json })).toMatchObject({
      status: 422,
      body: { detail: 'The page redirected more than 5 times' },
    })
  })

  it('takes the URL in a POST body, and refuses other schemes and invalid URLs with 422', async () => {
    const posted = await call(readBodyRoute, 'POST', '/r', { json: { url: web.url('/article') }, headers: json })
    expect(posted.status).toBe(200)
    expect(posted.body.data.title).toBe('Rerankers in practice')
    for (const url of [
      'file:///etc/passwd',
      'ftp://127.0.0.1/',
      'javascript:alert(1)',
      'data:text/html,hi',
      'gopher://x/',
    ])
      expect((await call(readBodyRoute, 'POST', '/r', { json: { url }, headers: json })).body.detail).toMatch(
        /^Only http and https URLs can be read, not \w+/,
      )
    expect(await call(readBodyRoute, 'POST', '/r', { json: { url: 'http://' }, headers: json })).toMatchObject({
      status: 422,
      body: { detail: 'is not a valid URL' },
    })
    expect((await call(readBodyRoute, 'POST', '/r', { json: { url: '' }, headers: json })).status).toBe(422)
    expect((await call(readBodyRoute, 'POST', '/r', { json: {}, headers: json })).status).toBe(422)
    expect((await read(web.url('/article'), { headers: { ...json, 'x-return-format': 'pdf' } })).status).toBe(422)
  })
})
