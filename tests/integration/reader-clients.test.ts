import { JinaClient } from '@agentic/jina'
import ky, { HTTPError } from 'ky'
import { describe, expect, it } from 'vitest'
import { keyWithBalance, send } from '../support/api'
import { apiWithWeb } from '../support/api-with-web'

/**
 * Issue 41, item 6: the original reader's clients against this server, reading fixture pages on loopback.
 * `@agentic/jina` (installed, 7.6.9) runs as it is, its host left at `https://r.jina.ai` and its `ky` given a
 * fetch that brings each request to the app's handler (this server as the reader host `r.jina.ai`), following
 * redirects as fetch does. The Jina MCP servers cannot change their host: their exact requests, as their
 * sources send them, are replayed: `jina-mcp-tools` 1.2.3 (`dist/reader.js`, `dist/utils.js`: `jina_reader`)
 * and the official `jina-ai/MCP` (`src/utils/read.ts`, `src/tools/jina-tools.ts`: `read_url`,
 * `parallel_read_url`, `capture_screenshot_url`). No LangChain or LlamaIndex loader for the JS runtimes reads
 * through a reader with a base URL (`@langchain/community` 1.1.29 has Jina's embeddings only,
 * `@llamaindex/readers` 3.1.22 and `@llamaindex/tools` 0.2.1 none), so none is replayed.
 */
const api = apiWithWeb({ READER_ALLOW_PRIVATE_NETWORKS: 'true', READER_HOST: 'r.jina.ai' })

/** A fetch that answers from the app's handler in this process, following redirects as the platform's does. */
async function viaHandler(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  let request = input instanceof Request ? input : new Request(input, init)
  for (let hop = 0; hop < 5; hop++) {
    const response = await send(request)
    const location = response.headers.get('location')
    if (response.status < 300 || response.status > 399 || !location || request.redirect !== 'follow') return response
    request = new Request(new URL(location, request.url), { headers: request.headers })
  }
  throw new Error('too many redirects')
}

const freshKey = async () => (await keyWithBalance(api.database.db, 1_000_000)).apiKey

describe('@agentic/jina', () => {
  const client = (apiKey: string) =>
    new JinaClient({ apiKey, throttle: false, ky: ky.create({ fetch: viaHandler, retry: 0 }) })

  it('readUrl answers the text form, and renders a page its script writes (the original default engine)', async () => {
    const jina = client(await freshKey())
    const text = (await jina.readUrl(api.web.url('/article'))) as string
    expect(text).toMatch(/^Title: Rerankers in practice\n\nURL Source: http:\/\/127\.0\.0\.1:\d+\/article\n/)
    expect(text).toContain('## Numbers')
    const scripted = (await jina.readUrl({ url: api.web.url('/browser/js'), noCache: true })) as string
    expect(scripted).toContain('SCRIPT-RENDERED paragraph 6')
  })

  it('readUrl with json, summaries, a target selector and a timeout answers the JSON envelope with each field', async () => {
    const jina = client(await freshKey())
    const answer = (await jina.readUrl({
      url: api.web.url('/article'),
      json: true,
      withLinksSummary: true,
      withImagesSummary: true,
      timeout: 20,
      noCache: true,
    })) as { code: number; data: Record<string, unknown> }
    expect(answer.code).toBe(200)
    expect(answer.data).toMatchObject({ title: 'Rerankers in practice', url: api.web.url('/article') })
    expect(answer.data.links).toMatchObject({ 'reranks them': api.web.url('/docs/1') })
    expect(Object.keys(answer.data.images as object)[0]).toMatch(/^Image 1: A two-stage pipeline/)

    const html = (await jina.readUrl({ url: api.web.url('/article'), json: true, returnFormat: 'html' })) as {
      data: Record<string, unknown>
    }
    expect(html.data.html).toMatch(/<h2>Numbers<\/h2>/)
    expect(html.data).not.toHaveProperty('content')
    const selected = (await jina.readUrl({
      url: api.web.url('/article'),
      json: true,
      targetSelector: 'table',
    })) as { data: { content: string } }
    expect(selected.data.content).toContain('| Reranker | 61.9 |')
    expect(selected.data.content).not.toContain('## Numbers')
  })

  it("readUrl's screenshot is the PNG itself (the 302 followed to the image)", async () => {
    const png = (await client(await freshKey()).readUrl({
      url: api.web.url('/browser/js'),
      returnFormat: 'screenshot',
    })) as ArrayBuffer
    expect(Buffer.from(png).subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
  })

  it("an option this server refuses comes back as ky's HTTPError with the original's error envelope", async () => {
    const error = await client(await freshKey())
      .readUrl({ url: api.web.url('/article'), json: true, withGeneratedAlt: true })
      .catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(HTTPError)
    const response = (error as HTTPError).response
    expect(response.status).toBe(422)
    expect(await response.json()).toMatchObject({
      code: 422,
      name: 'AssertionFailureError',
      readableMessage: expect.stringMatching(/^AssertionFailureError: X-With-Generated-Alt needs a vision model/),
      detail: expect.any(String),
    })
  })
})

/** POST https://r.jina.ai/ as the MCP servers send it, with `headers` as their sources build them. */
const postRead = (url: string, headers: Record<string, string>) =>
  viaHandler('https://r.jina.ai/', { method: 'POST', headers, body: JSON.stringify({ url }) })

describe("jina-mcp-tools' jina_reader (replayed)", () => {
  /** `buildJinaHeaders(false)` and `createHeaders` of its `dist/utils.js`, with `customTimeout` set. */
  const readerHeaders = (apiKey: string) => ({
    'Content-Type': 'application/json',
    Accept: 'application/json',
    'X-Md-Link-Style': 'discarded',
    'X-With-Links-Summary': 'all',
    'X-Retain-Images': 'none',
    'X-Timeout': '20',
    Authorization: `Bearer ${apiKey}`,
  })

  it('answers data.content without links or images, every link of the page in data.links', async () => {
    const response = await postRead(api.web.url('/article'), readerHeaders(await freshKey()))
    expect(response.ok).toBe(true)
    const data = ((await response.json()) as { data: { content: string; links: Array<[string, string]> } }).data
    expect(data.content).toContain('## Numbers')
    expect(data.content).toContain('reranks them')
    expect(data.content).not.toMatch(/\]\(http/)
    expect(data.content).not.toContain('![')
    expect(data.links).toContainEqual(['reranks them', api.web.url('/docs/1')])
  })

  it('reads a page its script writes, as the original would', async () => {
    const response = await postRead(api.web.url('/browser/loading'), readerHeaders(await freshKey()))
    const data = ((await response.json()) as { data: { content: string } }).data
    expect(data.content).toContain('SCRIPT-RENDERED paragraph 6')
  })
})

describe("the official Jina MCP server's reader tools (replayed)", () => {
  /** `readUrlFromConfig` of `src/utils/read.ts`. */
  const readUrlHeaders = (apiKey: string, { withAllLinks = false, withAllImages = false } = {}) => ({
    Accept: 'application/json',
    'Content-Type': 'application/json',
    'X-Md-Link-Style': 'discarded',
    Authorization: `Bearer ${apiKey}`,
    ...(withAllLinks && { 'X-With-Links-Summary': 'all' }),
    ...(withAllImages ? { 'X-With-Images-Summary': 'true' } : { 'X-Retain-Images': 'none' }),
  })

  it('read_url answers data.url, title, content, links as [text, url] pairs and images, as the tool maps them', async () => {
    const apiKey = await freshKey()
    const response = await postRead(
      api.web.url('/article'),
      readUrlHeaders(apiKey, { withAllLinks: true, withAllImages: true }),
    )
    expect(response.ok).toBe(true)
    const { data } = (await response.json()) as {
      data: { url: string; title: string; content: string; links: Array<[string, string]>; images: object }
    }
    expect(data.url).toBe(api.web.url('/article'))
    expect(data.title).toBe('Rerankers in practice')
    const mapped = data.links.map((link) => ({ anchorText: link[0], url: link[1] }))
    expect(mapped).toContainEqual({ anchorText: 'reranks them', url: api.web.url('/docs/1') })
    expect(Object.values(data.images)).toContain(api.web.url('/images/pipeline.png'))
    expect(data.content).toContain('## Numbers')
  })

  it('parallel_read_url: several reads at once, each answered', async () => {
    const apiKey = await freshKey()
    const pages = ['/article', '/list', '/browser/js']
    const answers = await Promise.all(
      pages.map(async (path) => {
        const response = await postRead(api.web.url(path), readUrlHeaders(apiKey))
        expect(response.ok, path).toBe(true)
        return ((await response.json()) as { data: { content: string } }).data.content
      }),
    )
    expect(answers[0]).toContain('## Numbers')
    expect(answers[1]).toContain('LIST-ITEM 59')
    expect(answers[2]).toContain('SCRIPT-RENDERED paragraph 6')
  })

  it('capture_screenshot_url: data.screenshotUrl or data.pageshotUrl, which downloads as a PNG', async () => {
    const apiKey = await freshKey()
    for (const format of ['screenshot', 'pageshot']) {
      const response = await viaHandler('https://r.jina.ai/', {
        method: 'POST',
        headers: {
          Accept: 'application/json',
          'Content-Type': 'application/json',
          'X-Return-Format': format,
          Authorization: `Bearer ${apiKey}`,
        },
        body: JSON.stringify({ url: api.web.url('/browser/tall?height=1500') }),
      })
      expect(response.ok, format).toBe(true)
      const { data } = (await response.json()) as { data: { screenshotUrl?: string; pageshotUrl?: string } }
      const imageUrl = data.screenshotUrl || data.pageshotUrl
      expect(imageUrl, format).toMatch(/\/v1\/reader\/shots\//)
      const image = await viaHandler(imageUrl!)
      expect(image.headers.get('content-type')).toBe('image/png')
      expect(
        Buffer.from(await image.arrayBuffer())
          .subarray(1, 4)
          .toString('latin1'),
      ).toBe('PNG')
    }
  })
})
