import { describe, expect, it } from 'vitest'
import { readerHeaders } from '~/contracts/reader'
import { corsPreflight } from '~/server/http/security'
import { call, keyWithBalance } from '../support/api'
import { apiWithWeb } from '../support/api-with-web'

/** Every documented reader header either changes the answer as documented or is refused with its reason. */
const api = apiWithWeb({ READER_ALLOW_PRIVATE_NETWORKS: 'true', READER_CACHE_TTL_SECONDS: '3600' })

const read = (path: string, headers: Record<string, string> = {}, bearer?: string) =>
  call('GET', `/r/${api.web.url(path)}`, {
    bearer,
    headers: { accept: 'application/json', 'x-no-cache': 'true', 'x-return-format': 'markdown', ...headers },
  })
const content = async (headers: Record<string, string>, path = '/images-page') => {
  const { status, body } = await read(path, headers)
  expect(status).toBe(200)
  return body.data.content as string
}

describe('Markdown options', () => {
  it('writes the defaults: atx headings, - bullets, _em_, **strong**, inline links, images, GitHub tables', async () => {
    const text = await content({})
    expect(text).toMatch(/^# Pictures$/m)
    expect(text).toMatch(/^- {3}one$/m)
    expect(text).toContain('_emphasis_')
    expect(text).toContain('**strength**')
    expect(text).toContain(`[first link](${api.web.url('/docs/1')})`)
    expect(text).toContain(`![Image 1: A chart](${api.web.url('/images/chart.png')})`)
    expect(text).not.toContain('data:image')
    expect(text).toContain('| Model | Score |')
    expect(text).toContain('~old~')
  })

  it('honours each X-Md-* header', async () => {
    expect(await content({ 'x-md-heading-style': 'setext' })).toMatch(/^Pictures\n=+$/m)
    expect(await content({ 'x-md-hr': '- - -' })).toMatch(/^- - -$/m)
    expect(await content({ 'x-md-bullet-list-marker': '*' })).toMatch(/^\* {3}one$/m)
    expect(await content({ 'x-md-em-delimiter': '*' })).toContain('*emphasis*')
    expect(await content({ 'x-md-strong-delimiter': '__' })).toContain('__strength__')
    const referenced = await content({ 'x-md-link-style': 'referenced' })
    expect(referenced).toContain('[first link][1]')
    expect(referenced).toContain(`[1]: ${api.web.url('/docs/1')}`)
    const collapsed = await content({ 'x-md-link-style': 'referenced', 'x-md-link-reference-style': 'collapsed' })
    expect(collapsed).toContain('[first link][]')
    const discarded = await content({ 'x-md-link-style': 'discarded' })
    expect(discarded).toContain('a first link and a second link')
    expect(discarded).not.toContain('/docs/1')
  })

  it('honours X-No-Gfm, X-Retain-Images and X-Keep-Img-Data-Url', async () => {
    const plain = await content({ 'x-no-gfm': 'true' })
    expect(plain).not.toContain('| Model | Score |')
    expect(plain).not.toContain('~old~')
    const noTables = await content({ 'x-no-gfm': 'table' })
    expect(noTables).not.toContain('| Model | Score |')
    expect(noTables).toContain('~old~')
    expect(await content({ 'x-retain-images': 'none' })).not.toMatch(/chart|Image/)
    const alt = await content({ 'x-retain-images': 'alt' })
    expect(alt).toContain('(Image 1: A chart)')
    expect(alt).not.toContain('chart.png')
    expect(await content({ 'x-keep-img-data-url': 'true' })).toContain(
      '![Image 2: Inline dot](data:image/png;base64,iVBORw0KGgo=)',
    )
  })

  it('honours X-Max-Output-Tokens by cutting the content', async () => {
    const { body } = await read('/article', { 'x-max-output-tokens': '20' })
    expect(body.data.usage.tokens).toBeLessThanOrEqual(20)
    expect(body.data.content.length).toBeGreaterThan(0)
  })

  it('honours X-Base: links against where the redirects ended (final), or the URL asked for (initial)', async () => {
    const path = `/redirect?to=${encodeURIComponent('/browser/relative')}`
    const final = await read(path, { 'x-base': 'final' })
    expect(final.body.data.url).toBe(api.web.url('/browser/relative'))
    expect(final.body.data.content).toContain(`[relative link](${api.web.url('/browser/docs/1')})`)
    // `initial`, the original's default: the links and `URL Source` are the URL asked for.
    for (const headers of [{ 'x-base': 'initial' }, {}] as Array<Record<string, string>>) {
      const initial = await read(path, headers)
      expect(initial.body.data.url).toBe(api.web.url(path))
      expect(initial.body.data.content).toContain(`[relative link](${api.web.url('/docs/1')})`)
    }
    const text = await call('GET', `/r/${api.web.url(path)}`, { headers: { 'x-no-cache': 'true' } })
    expect(text.body).toContain(`URL Source: ${api.web.url(path)}\n`)
  })
})

describe('robots.txt, budgets, the cache and refused options', () => {
  it('obeys robots.txt for the user agent named in X-Robots-Txt', async () => {
    const refused = await read('/private/page', { 'x-robots-txt': 'SomeBot' })
    expect(refused.status).toBe(403)
    expect(refused.body.detail).toMatch(/robots\.txt does not allow SomeBot/)
    expect(api.web.hits.map((hit) => hit.path)).toEqual(['/robots.txt'])
    expect((await read('/article', { 'x-robots-txt': 'SomeBot' })).status).toBe(200)
    expect((await read('/article', { 'x-robots-txt': 'StrictBot/2.0' })).status).toBe(403)
    expect((await read('/plain', { 'x-robots-txt': 'StrictBot/2.0' })).status).toBe(200)
    // Kept: robots.txt was fetched once for all of these.
    expect(api.web.hits.filter((hit) => hit.path === '/robots.txt')).toHaveLength(1)
  })

  it("refuses a page over X-Token-Budget with the original's 409 BudgetExceededError and charges nothing", async () => {
    const key = await keyWithBalance(api.database.db, 100_000)
    const { status, body } = await read('/article', { 'x-token-budget': '10' }, key.apiKey)
    expect(status).toBe(409)
    expect(body).toMatchObject({ code: 409, name: 'BudgetExceededError', status: 40904, data: null })
    expect(body.detail).toMatch(/more than X-Token-Budget \(10\); nothing was charged/)
    expect(body.message).toBe(body.detail)
    expect(body.readableMessage).toBe(`BudgetExceededError: ${body.detail}`)
    expect(await api.balanceOf(key.id)).toBe(100_000)
    const within = await read('/article', { 'x-token-budget': '100000' }, key.apiKey)
    expect(within.status).toBe(200)
    expect(await api.balanceOf(key.id)).toBe(100_000 - within.body.data.usage.tokens)
  })

  it('honours X-Cache-Tolerance and DNT', async () => {
    const path = '/article?tolerance'
    const get = (headers: Record<string, string>) =>
      call('GET', `/r/${api.web.url(path)}`, { headers: { accept: 'application/json', ...headers } })
    expect((await get({ dnt: '1' })).response.headers.get('x-cache')).toBe('miss')
    // DNT: nothing was written, so the next read misses too.
    expect((await get({})).response.headers.get('x-cache')).toBe('miss')
    expect((await get({})).response.headers.get('x-cache')).toBe('hit')
    expect((await get({ 'x-cache-tolerance': '3600' })).response.headers.get('x-cache')).toBe('hit')
    expect((await get({ 'x-cache-tolerance': '0' })).response.headers.get('x-cache')).toBe('miss')
  })

  it('refuses what it does not offer with 422 naming why: a proxy pool, generated alt text, model formats', async () => {
    for (const [headers, reason] of [
      [{ 'x-proxy': 'us' }, /X-Proxy picks a proxy from a pool this server does not have/],
      [{ 'x-with-generated-alt': 'true' }, /X-With-Generated-Alt needs a vision model/],
      [{ 'x-return-format': 'readerlm-v2' }, /readerlm-v2 format needs a language model/],
      [{ 'x-respond-with': 'vlm' }, /vlm format needs a language model/],
    ] as const) {
      const { status, body } = await read('/article', headers)
      expect(status).toBe(422)
      expect(body.detail).toMatch(reason)
    }
    expect(api.web.hits).toEqual([])
    const bad = await read('/article', { 'x-md-heading-style': 'loud' })
    expect(bad.status).toBe(422)
  })
})

describe('CORS', () => {
  it('lets a browser send every header the reader reads', () => {
    const preflight = corsPreflight(
      new Request('http://localhost/r/https://example.com/', {
        method: 'OPTIONS',
        headers: { origin: 'https://app.example', 'access-control-request-method': 'GET' },
      }),
      { PUBLIC_BASE_URL: 'http://localhost:3000' },
    )!
    const allowed = preflight.headers
      .get('access-control-allow-headers')!
      .split(',')
      .map((name) => name.trim().toLowerCase())
    for (const name of [...Object.keys(readerHeaders.entries), 'accept', 'authorization', 'content-type'])
      expect(allowed).toContain(name)
    expect(allowed).toContain('x-md-link-reference-style')
  })
})
