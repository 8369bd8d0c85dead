import { describe, expect, it } from 'vitest'
import { call, keyWithBalance, respond } from '../support/api'
import { apiWithWeb, eventsOf } from '../support/api-with-web'

/**
 * The original reader's conventions as its clients rely on them (issue 41): its engine names, its answer
 * shapes (a field per format, compound formats, fields only when asked for), its image numbering, its error
 * envelope, its clamped timeouts, error pages answered with a warning, and its remaining options, in headers
 * and in the POST body's camelCase.
 */
const api = apiWithWeb({ READER_ALLOW_PRIVATE_NETWORKS: 'true', READER_CACHE_TTL_SECONDS: '3600' })

const fresh = { 'x-no-cache': 'true' }
const json = { accept: 'application/json', ...fresh }
const read = (path: string, headers: Record<string, string> = {}, bearer?: string) =>
  call('GET', `/r/${api.web.url(path)}`, { bearer, headers: { ...json, ...headers } })
const page = '/conventions-page'
const markdown = { 'x-return-format': 'markdown' }

describe("the original's engine names and base", () => {
  it('takes X-Engine: curl as the direct fetch, and cf-browser-rendering as the browser', async () => {
    const curl = await read(page, { 'x-engine': 'curl' })
    expect(curl.status).toBe(200)
    expect(curl.body.data.engine).toBe('direct')
    expect(curl.response.headers.get('x-engine')).toBe('direct')
    const rendered = await read(page, { 'x-engine': 'cf-browser-rendering' })
    expect(rendered.status).toBe(200)
    expect(rendered.body.data.engine).toBe('browser')
  })
})

describe("the original's answer shapes", () => {
  it('answers each format in its own field: content, html, text', async () => {
    const html = (await read(page, { 'x-respond-with': 'html' })).body.data
    expect(html.html).toContain('<h1>Conventions</h1>')
    expect(html).not.toHaveProperty('content')
    const text = (await read(page, { 'x-respond-with': 'text' })).body.data
    expect(text.text).toContain('Conventions')
    expect(text).not.toHaveProperty('content')
    expect((await read(page, markdown)).body.data.content).toContain('# Conventions')
  })

  it('answers compound formats, markdown+html and markdown,html, in JSON, the event stream and text', async () => {
    for (const formats of ['markdown+html', 'markdown,html']) {
      const { status, body } = await read(page, { 'x-respond-with': formats })
      expect(status).toBe(200)
      expect(body.data.content).toContain('# Conventions')
      expect(body.data.html).toContain('<h1>Conventions</h1>')
      const single = (await read(page, markdown)).body.data.usage.tokens
      expect(body.data.usage.tokens).toBeGreaterThan(single)
    }
    const stream = await respond('GET', `/r/${api.web.url(page)}`, {
      headers: { ...fresh, accept: 'text/event-stream', 'x-respond-with': 'markdown,text' },
    })
    const last = JSON.parse((await eventsOf(stream)).at(-1)!.data)
    expect(last.content).toContain('# Conventions')
    expect(last.text).toContain('Second part text.')
    const text = await call('GET', `/r/${api.web.url(page)}`, {
      headers: { ...fresh, 'x-respond-with': 'markdown,html' },
    })
    expect(text.body).toMatch(
      /\n\nMarkdown Content:\n[\s\S]*# Conventions[\s\S]*\n\nHTML:\n<html><head><title>Conventions/,
    )
  })

  it('answers links, images and engine only when asked for', async () => {
    const plain = (await read(page, markdown)).body.data
    for (const field of ['links', 'images', 'engine', 'chunks']) expect(plain).not.toHaveProperty(field)
    const asked = (
      await read(page, {
        ...markdown,
        'x-with-links-summary': 'true',
        'x-with-images-summary': 'true',
        'x-engine': 'direct',
      })
    ).body.data
    expect(asked.links).toMatchObject({ 'a link': api.web.url('/docs/1') })
    expect(asked.images).toEqual({
      'Image 1: a cat': api.web.url('/images/cat.png'),
      'Image 2': api.web.url('/images/dog.png'),
    })
    expect(asked.engine).toBe('direct')
  })

  it('takes Accept: text/json as JSON', async () => {
    const { body, response } = await read(page, { accept: 'text/json' })
    expect(response.headers.get('content-type')).toMatch(/^application\/json/)
    expect(body).toMatchObject({ code: 200, status: 20000, data: { title: 'Conventions' } })
  })

  it('numbers the images as the original does, and keeps them unnumbered with all_p and alt_p', async () => {
    const numbered = (await read(page, markdown)).body.data.content
    expect(numbered).toContain(`![Image 1: a cat](${api.web.url('/images/cat.png')})`)
    expect(numbered).toContain(`![Image 2](${api.web.url('/images/dog.png')})`)
    expect((await read(page, { ...markdown, 'x-retain-images': 'alt' })).body.data.content).toContain(
      '(Image 1: a cat)',
    )
    const plain = (await read(page, { ...markdown, 'x-retain-images': 'all_p' })).body.data.content
    expect(plain).toContain(`![a cat](${api.web.url('/images/cat.png')})`)
    const altPlain = (await read(page, { ...markdown, 'x-retain-images': 'alt_p' })).body.data.content
    expect(altPlain).toContain('(Image: a cat)')
    expect(altPlain).not.toContain('cat.png')
  })

  it('says X-Usage-Tokens on JSON and text answers', async () => {
    const { body, response } = await read(page, markdown)
    expect(response.headers.get('x-usage-tokens')).toBe(String(body.data.usage.tokens))
    const text = await respond('GET', `/r/${api.web.url(page)}`, { headers: fresh })
    expect(Number(text.headers.get('x-usage-tokens'))).toBeGreaterThan(0)
  })

  it("answers refusals in the original's envelope, with detail beside it", async () => {
    const { status, body } = await read(page, { 'x-engine': 'warp-drive' })
    expect(status).toBe(422)
    expect(body).toMatchObject({ data: null, code: 422, name: 'ParamValidationError', status: 42201 })
    expect(body.detail).toEqual(expect.any(Array))
    expect(body.message).toMatch(/x-engine/)
    expect(body.readableMessage).toBe(`ParamValidationError: ${body.message}`)
    const forbidden = await read('/private/page', { 'x-robots-txt': 'SomeBot' })
    expect(forbidden.status).toBe(403)
    expect(forbidden.body).toMatchObject({ code: 403, name: 'SecurityCompromiseError', status: 40301 })
    expect(forbidden.body.detail).toMatch(/robots\.txt does not allow SomeBot/)
  })

  it('clamps X-Timeout to 180 s, and takes 0 as the default, rather than refusing them', async () => {
    expect((await read(page, { 'x-timeout': '500' })).status).toBe(200)
    expect((await read(page, { 'x-timeout': '0' })).status).toBe(200)
  })

  it("answers a page's error page with its warning line, charged like any page", async () => {
    const key = await keyWithBalance(api.database.db, 100_000)
    const { status, body } = await read('/status?code=404', {}, key.apiKey)
    expect(status).toBe(200)
    expect(body.data.content).toContain('Not here')
    expect(body.data.warning).toBe('Target URL returned error 404: Not Found')
    expect(await api.balanceOf(key.id)).toBe(100_000 - body.data.usage.tokens)
    const text = await call('GET', `/r/${api.web.url('/status?code=404')}`, { headers: fresh })
    expect(text.body).toMatch(/\nWarning: Target URL returned error 404: Not Found\n\nMarkdown Content:\nNot here/)
  })
})

describe("the original's remaining options", () => {
  it('honours X-Max-Tokens, its name for X-Max-Output-Tokens', async () => {
    const whole = (await read(page, markdown)).body.data
    const cut = (await read(page, { ...markdown, 'x-max-tokens': '10' })).body.data
    expect(cut.usage.tokens).toBeLessThanOrEqual(10)
    expect(cut.content.length).toBeLessThan(whole.content.length)
  })

  it('honours X-Retain-Links: none, text and gpt-oss', async () => {
    const none = (await read(page, { ...markdown, 'x-retain-links': 'none' })).body.data.content
    expect(none).toContain('Intro with  and .')
    const text = (await read(page, { ...markdown, 'x-retain-links': 'text' })).body.data.content
    expect(text).toContain('Intro with a link and another.')
    const gptOss = (await read(page, { ...markdown, 'x-retain-links': 'gpt-oss' })).body.data.content
    const host = new URL(api.web.url('/')).host
    expect(gptOss).toContain(`Intro with 【0†a link†${host}】 and 【1†another†example.org】.`)
  })

  it('honours X-Markdown-Chunking with data.chunks, split at headings', async () => {
    const { body } = await read(page, { ...markdown, 'x-remove-overlay': 'true', 'x-markdown-chunking': 'true' })
    expect(body.data.chunks).toEqual([
      expect.stringMatching(/^# Conventions/),
      expect.stringMatching(/^## Part two\n\nSecond part text\./),
      expect.stringMatching(/^## Part three\n\nThird part text\./),
    ])
    const small = (await read(page, { ...markdown, 'x-markdown-chunking': '200' })).body.data.chunks as string[]
    expect(small.length).toBeGreaterThan(3)
    for (const chunk of small) expect(chunk.length).toBeLessThanOrEqual(200)
  })

  it('honours X-Remove-Overlay: banners, fixed layers and dialogs go, the page stays', async () => {
    const kept = (await read(page, markdown)).body.data.content
    expect(kept).toMatch(/COOKIE-MARKER[\s\S]*FIXED-MARKER[\s\S]*DIALOG-MARKER/)
    const removed = (await read(page, { ...markdown, 'x-remove-overlay': 'true' })).body.data.content
    expect(removed).not.toMatch(/COOKIE-MARKER|FIXED-MARKER|DIALOG-MARKER/)
    expect(removed).toContain('# Conventions')
  })

  it("takes the original's camelCase options in the POST body, as JSON and as a form", async () => {
    const { status, body } = await call('POST', '/r', {
      headers: json,
      json: {
        url: api.web.url(page),
        respondWith: 'markdown',
        targetSelector: ['h2', 'p'],
        withLinksSummary: true,
        retainImages: 'none',
        noCache: true,
      },
    })
    expect(status).toBe(200)
    expect(body.data.content).toContain('## Part two')
    expect(body.data.content).not.toContain('# Conventions\n')
    expect(body.data.content).not.toContain('cat.png')
    expect(body.data.links).toMatchObject({ 'a link': api.web.url('/docs/1') })
    const budget = await call('POST', '/r', { headers: json, json: { url: api.web.url(page), tokenBudget: 5 } })
    expect(budget.status).toBe(409)
    expect(budget.body.name).toBe('BudgetExceededError')
    const form = await call('POST', '/r', {
      headers: json,
      form: { url: api.web.url(page), respondWith: 'text', withImagesSummary: 'true' },
    })
    expect(form.body.data.text).toContain('Second part text.')
    expect(form.body.data.images).toHaveProperty('Image 1: a cat')
    const unknown = await call('POST', '/r', { headers: json, json: { url: api.web.url(page), warpDrive: true } })
    expect(unknown.status).toBe(422)
  })
})
