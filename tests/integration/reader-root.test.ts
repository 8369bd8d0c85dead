import { describe, expect, it } from 'vitest'
import { call, respond } from '../support/api'
import { apiWithWeb, eventsOf } from '../support/api-with-web'

/**
 * The original reader's addressing, as its clients build it: the page's URL right after the host, and `POST /`
 * with `url`; a reader host whose whole root is the reader. The site's own pages stay the site's.
 */
const api = apiWithWeb({ READER_ALLOW_PRIVATE_NETWORKS: 'true', READER_HOST: 'r.example.test' })

const fresh = { 'x-no-cache': 'true' }

describe('the reader at the site root', () => {
  it('answers GET /<absolute URL> in every answer format Accept asks for', async () => {
    const path = `/${api.web.url('/article')}`
    const json = await call('GET', path, { headers: { ...fresh, accept: 'application/json' } })
    expect(json.status).toBe(200)
    expect(json.body).toMatchObject({ code: 200, status: 20000, data: { title: 'Rerankers in practice' } })
    expect(json.body.data.url).toBe(api.web.url('/article'))

    for (const accept of ['text/plain', 'text/markdown', 'text/html', '*/*']) {
      const text = await call('GET', path, { headers: { ...fresh, accept } })
      expect(text.status, accept).toBe(200)
      expect(text.body).toMatch(/^Title: Rerankers in practice\n\nURL Source: http:\/\/127\.0\.0\.1:\d+\/article\n/)
    }

    const stream = await respond('GET', path, { headers: { ...fresh, accept: 'text/event-stream' } })
    expect(stream.status).toBe(200)
    const events = await eventsOf(stream)
    expect(JSON.parse(events.at(-1)!.data).title).toBe('Rerankers in practice')
  })

  it("keeps the page's own query, and takes an encoded URL", async () => {
    const { body } = await call('GET', `/${api.web.url('/redirect?to=%2Fplain')}`, { headers: fresh })
    expect(body).toContain('PLAIN-MARKER')
    const encoded = await call('GET', `/${encodeURIComponent(api.web.url('/plain'))}`, { headers: fresh })
    expect(encoded.body).toContain('PLAIN-MARKER')
  })

  it('answers POST / with url as JSON, form-urlencoded and multipart', async () => {
    const url = api.web.url('/article')
    const headers = { ...fresh, accept: 'application/json' }
    const json = await call('POST', '/', { headers, json: { url } })
    expect(json.status).toBe(200)
    expect(json.body.data.title).toBe('Rerankers in practice')
    const form = await call('POST', '/', { headers, form: { url } })
    expect(form.body.data.title).toBe('Rerankers in practice')
    const multipart = new FormData()
    multipart.set('url', url)
    const parts = await call('POST', '/', { headers, body: multipart })
    expect(parts.status).toBe(200)
    expect(parts.body.data.title).toBe('Rerankers in practice')
  })

  it('leaves the site its pages: GET / from a browser, locale paths, /r/ as before', async () => {
    const landing = await respond('GET', '/', { headers: { accept: 'text/html' } })
    expect(landing.status).toBe(200)
    expect(landing.headers.get('content-type')).toMatch(/^text\/html/)
    const german = await respond('GET', '/de', { headers: { accept: 'text/html' } })
    expect(german.status).toBe(200)
    expect(await german.text()).toMatch(/<html[^>]*lang="de"/)
    expect(api.web.hits).toHaveLength(0)
    const old = await call('GET', `/r/${api.web.url('/plain')}`, { headers: fresh })
    expect(old.body).toContain('PLAIN-MARKER')
  })
})

describe('READER_HOST: a host whose whole root is the reader', () => {
  const host = 'http://r.example.test'

  it('reads /<url> with or without its scheme, and POST /', async () => {
    const withScheme = await call('GET', `${host}/${api.web.url('/plain')}`, { headers: fresh })
    expect(withScheme.body).toContain('PLAIN-MARKER')
    // Without a scheme the page is read over https, as the original reads it: the fixture speaks only http.
    const bare = api.web.url('/plain').replace(/^http:\/\//, '')
    const withoutScheme = await call('GET', `${host}/${bare}`, { headers: { ...fresh, accept: 'application/json' } })
    expect(withoutScheme.status).toBe(502)
    expect(withoutScheme.body.detail).toEqual(expect.any(String))
    const posted = await call('POST', `${host}/`, {
      headers: { ...fresh, accept: 'application/json' },
      json: { url: api.web.url('/plain') },
    })
    expect(posted.body.data.content).toContain('PLAIN-MARKER')
  })

  it("does not read a bare name on the site's own host, and keeps the site's files on the reader host", async () => {
    const bare = api.web.url('/plain').replace(/^http:\/\//, '')
    const site = await respond('GET', `/${bare}`, { headers: { ...fresh, accept: 'text/plain' } })
    expect(await site.text()).not.toContain('PLAIN-MARKER')
    const robots = await respond('GET', `${host}/robots.txt`)
    expect(robots.status).toBe(200)
    expect(await robots.text()).toMatch(/User-agent/i)
    expect(api.web.hits).toHaveLength(0)
  })
})
