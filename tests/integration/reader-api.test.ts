import { describe, expect, it } from 'vitest'
import { readerPage } from '~/contracts/reader'
import { countTokens } from '../support/tokens'
import * as v from 'valibot'
import { call, respond, type CallInit } from '../support/api'
import { apiWithWeb, eventsOf } from '../support/api-with-web'

const api = apiWithWeb({ READER_ALLOW_PRIVATE_NETWORKS: 'true', READER_CACHE_TTL_SECONDS: '3600' })

const read = (url: string, init: CallInit = {}) => call('GET', `/r/${url}`, init)
const fresh = { 'x-no-cache': 'true' }
const json = { accept: 'application/json', ...fresh }

describe('GET /r/{url}: the answer formats', () => {
  it('answers text by default: title, source and the article as Markdown with absolute links', async () => {
    const { status, body, response } = await read(api.web.url('/article'), { headers: fresh })
    expect(status).toBe(200)
    expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8')
    expect(body).toMatch(
      /^Title: Rerankers in practice\n\nURL Source: http:\/\/127\.0\.0\.1:\d+\/article\n\nPublished Time: 2025-03-04T05:06:07\.000Z\n\nMarkdown Content:\n/,
    )
    expect(body).toContain('## Numbers')
    expect(body).toContain(`[reranks them](${api.web.url('/docs/1')})`)
    // Images numbered as the original numbers them.
    expect(body).toContain(`![Image 1: A two-stage pipeline](${api.web.url('/images/pipeline.png')})`)
    expect(body).toContain('| Reranker | 61.9 |')
    // The article, not the page around it; never scripts or styles.
    expect(body).not.toMatch(/NAV-MARKER|FOOTER-MARKER|SCRIPT-MARKER|color: red/)
    expect(body).not.toContain('javascript:')
  })

  it('answers JSON with the metadata, the content and the output tokens it counted', async () => {
    const { status, body } = await read(api.web.url('/article'), { headers: json })
    expect(status).toBe(200)
    expect(body).toMatchObject({ code: 200, status: 20000 })
    const page = body.data
    expect(page).toMatchObject({
      title: 'Rerankers in practice',
      description: 'How a reranker lifts search precision.',
      url: api.web.url('/article'),
      publishedTime: '2025-03-04T05:06:07.000Z',
    })
    // No summary, engine or chunks asked for: none answered, as the original answers.
    for (const field of ['links', 'images', 'engine', 'chunks', 'html', 'text']) expect(page).not.toHaveProperty(field)
    expect(page.usage.tokens).toBe(countTokens(page.content))
  })

  it('keeps the whole page when the article holds less than 0.3 of its Markdown', async () => {
    const { body } = await read(api.web.url('/list'), { headers: json })
    expect(body.data.content).toContain('INTRO-MARKER')
    expect(body.data.content).toContain('LIST-ITEM 59')
  })

  it('answers each X-Return-Format: the whole page as Markdown, the HTML, and the text', async () => {
    const markdown = (await read(api.web.url('/article'), { headers: { ...json, 'x-return-format': 'markdown' } })).body
      .data.content
    expect(markdown).toContain('NAV-MARKER')
    expect(markdown).toContain('FOOTER-MARKER')
    expect(markdown).not.toContain('SCRIPT-MARKER')

    const html = await read(api.web.url('/article'), { headers: { ...fresh, 'x-return-format': 'html' } })
    expect(html.body).toMatch(/^<!DOCTYPE html>\n<html lang="en"><head>/)
    expect(html.body).toContain(`<a href="${api.web.url('/docs/1')}">reranks them</a>`)
    expect(html.body).not.toContain('SCRIPT-MARKER')

    const text = await read(api.web.url('/article'), { headers: { ...fresh, 'x-return-format': 'text' } })
    expect(text.body).toContain('Rerankers in practice\n')
    expect(text.body).toContain(
      'Paragraph 1 explains how a search pipeline retrieves candidates, reranks them and keeps the best',
    )
    expect(text.body).toContain('BM25\t42.1')
    expect(text.body).not.toMatch(/[<>]|\*\*|\]\(/)
  })

  it('narrows to X-Target-Selector and drops X-Remove-Selector, and refuses a selector it cannot use', async () => {
    const target = await read(api.web.url('/article'), { headers: { ...json, 'x-target-selector': 'table, footer' } })
    expect(target.body.data.content).toContain('| BM25 | 42.1 |')
    expect(target.body.data.content).toContain('FOOTER-MARKER')
    expect(target.body.data.content).not.toContain('Paragraph 1')

    const removed = await read(api.web.url('/article'), {
      headers: { ...json, 'x-return-format': 'markdown', 'x-remove-selector': 'nav, .ad' },
    })
    expect(removed.body.data.content).not.toMatch(/NAV-MARKER|AD-MARKER/)
    expect(removed.body.data.content).toContain('FOOTER-MARKER')

    for (const [header, value, detail] of [
      ['x-target-selector', 'section.missing', 'X-Target-Selector matched no element of the page'],
      ['x-target-selector', 'div[', 'X-Target-Selector is not a valid CSS selector'],
      ['x-remove-selector', '>>>', 'X-Remove-Selector is not a valid CSS selector'],
    ])
      expect(await read(api.web.url('/article'), { headers: { ...json, [header]: value } })).toMatchObject({
        status: 422,
        body: { detail },
      })
  })

  it('adds the links and images summaries when asked, in the text and in JSON', async () => {
    const headers = { 'x-with-links-summary': 'true', 'x-with-images-summary': 'true' }
    const { body } = await read(api.web.url('/article'), { headers: { ...json, ...headers } })
    expect(body.data.links).toMatchObject({
      'reranks them': api.web.url('/docs/1'),
      'the paper': 'https://example.org/paper',
    })
    expect(body.data.links).not.toHaveProperty('nowhere')
    expect(body.data.images).toEqual({ 'Image 1: A two-stage pipeline': api.web.url('/images/pipeline.png') })
    const text = (await read(api.web.url('/article'), { headers: { ...fresh, ...headers } })).body
    expect(text).toContain(`Links/Buttons:\n- [NAV-MARKER home](${api.web.url('/')})`)
    expect(text).toContain(`Images:\n- ![Image 1: A two-stage pipeline](${api.web.url('/images/pipeline.png')})`)
    expect(body.data.usage.tokens).toBeGreaterThan(countTokens(body.data.content))
  })

  it('reads plain text, JSON, gzip and Latin-1 pages, and refuses what it cannot convert with 422', async () => {
    expect((await read(api.web.url('/plain'), { headers: json })).body.data.content).toBe(
      'PLAIN-MARKER\nJust text, kept as it is.',
    )
    expect((await read(api.web.url('/json'), { headers: json })).body.data.content).toBe(
      '```json\n{\n  "marker": "JSON-MARKER",\n  "items": [\n    1,\n    2\n  ]\n}\n```',
    )
    expect((await read(api.web.url('/gzip'), { headers: json })).body.data.title).toBe('Rerankers in practice')
    const latin1 = (await read(api.web.url('/latin1'), { headers: json })).body.data
    expect(latin1.title).toBe('Café')
    expect(latin1.content).toContain('Crème brûlée au café, servie tiède.')
    // PDFs are read (tests/integration/reader-pdf.test.ts); a damaged one is refused.
    expect(await read(api.web.url('/pdf'), { headers: json })).toMatchObject({
      status: 422,
      body: { detail: 'The PDF could not be read (it is damaged or encrypted)' },
    })
    expect((await read(api.web.url('/image'), { headers: json })).status).toBe(422)
  })
})

describe('GET /r/{url} as an event stream', () => {
  it('sends completer snapshots while a slow page downloads, parsed by the shared client, the last one whole', async () => {
    const response = await respond('GET', `/r/${api.web.url('/slow?parts=4&pause=400')}`, {
      headers: { accept: 'text/event-stream', ...fresh },
    })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8')
    const events = await eventsOf(response)
    expect(events.length).toBeGreaterThanOrEqual(3)
    expect(new Set(events.map((event) => event.event))).toEqual(new Set(['data']))
    const pages = events.map((event) => v.parse(readerPage, JSON.parse(event.data)))
    const lengths = pages.map((page) => page.content!.length)
    expect(lengths).toEqual([...lengths].sort((a, b) => a - b))
    expect(lengths[0]).toBeLessThan(lengths.at(-1)!)
    const whole = (await read(api.web.url('/slow?parts=4&pause=400'), { headers: json })).body.data
    expect(pages.at(-1)).toEqual(whole)
  })

  it('ends a stream that fails after it began with an error event the client throws as its status', async () => {
    const response = await respond('GET', `/r/${api.web.url('/pdf')}`, {
      headers: { accept: 'text/event-stream', ...fresh },
    })
    const events = await eventsOf(response)
    expect(events).toEqual([{ event: 'error', data: expect.stringContaining('"code":422') }])
  })
})
