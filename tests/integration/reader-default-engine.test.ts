import { readFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readerBrowserSeconds } from '#config'
import { call, keyWithBalance, type CallInit } from '../support/api'
import { apiWithWeb } from '../support/api-with-web'

/**
 * Issue 41, item 2: without `X-Engine` the reader does what the original does, rendering in the browser the
 * pages that need it (their text written by a script: an empty or "Loading…" app root, a noscript line asking
 * for JavaScript, next to no text) and saying which engine read it, within the key's (or address's) browser
 * seconds a minute (`readerBrowserSeconds` in app.config); past them the default reads directly with a
 * warning, and `X-Engine: browser` is refused with 429. On the code before, every one of these pages came
 * back as its loading line.
 */
const api = apiWithWeb({ READER_ALLOW_PRIVATE_NETWORKS: 'true', READER_CACHE_TTL_SECONDS: '3600' })

const fresh = { 'x-no-cache': 'true' }
let address = 10
/** Each test reads from its own address: the browser time of keyless callers is counted per address. */
const nextAddress = () => `198.51.100.${address++}`

const read = (url: string, init: CallInit = {}) =>
  call('GET', `/r/${url}`, { ...init, headers: { accept: 'application/json', ...fresh, ...init.headers } })

describe('no X-Engine: the browser when the page needs it', () => {
  it('renders a page whose script writes its text, and says so in X-Engine (and `engine` when asked)', async () => {
    const from = nextAddress()
    const { status, body, response } = await read(api.web.url('/browser/js'), { address: from })
    expect(status).toBe(200)
    expect(response.headers.get('x-engine')).toBe('browser')
    expect(body.data.content).toContain('SCRIPT-RENDERED paragraph 6')
    // Fields only when asked for, as the original answers: `engine` comes with X-Engine.
    expect(body.data).not.toHaveProperty('engine')
    const named = await read(api.web.url('/browser/js'), { address: from, headers: { 'x-engine': 'auto' } })
    expect(named.body.data.engine).toBe('browser')

    const text = await call('GET', `/r/${api.web.url('/browser/js')}`, { address: from, headers: fresh })
    expect(text.response.headers.get('x-engine')).toBe('browser')
    expect(text.body).toContain('SCRIPT-RENDERED paragraph 1')
  })

  it('renders an app root that says "Loading…" amid server-written text, and a page whose noscript asks for JavaScript', async () => {
    const from = nextAddress()
    for (const path of ['/browser/loading', '/browser/noscript']) {
      const direct = await read(api.web.url(path), {
        address: from,
        headers: { 'x-engine': 'direct', 'x-return-format': 'markdown' },
      })
      // More than 200 characters without the script: the length alone would not have told.
      expect(direct.body.data.content.length, path).toBeGreaterThan(200)
      expect(direct.body.data.content, path).not.toContain('SCRIPT-RENDERED')

      const { body, response } = await read(api.web.url(path), { address: from })
      expect(response.headers.get('x-engine'), path).toBe('browser')
      expect(body.data.content, path).toContain('SCRIPT-RENDERED paragraph 6')
      expect(body.data.content, path).not.toContain('Loading…')
    }
  })

  it('keeps the direct read for pages with text of their own, and for pages without a script', async () => {
    for (const path of ['/article', '/browser/static', '/json']) {
      const { status, response } = await read(api.web.url(path), { address: nextAddress() })
      expect(status, path).toBe(200)
      expect(response.headers.get('x-engine'), path).toBe('direct')
    }
  })

  it('caches what the browser read: the next read is answered from the cache, spending no browser time', async () => {
    const from = nextAddress()
    const url = api.web.url('/browser/loading?cached=1')
    const first = await call('GET', `/r/${url}`, { address: from, headers: { accept: 'application/json' } })
    expect(first.response.headers.get('x-cache')).toBe('miss')
    const again = await call('GET', `/r/${url}`, { address: from, headers: { accept: 'application/json' } })
    expect(again.response.headers.get('x-cache')).toBe('hit')
    expect(again.body.data.content).toContain('SCRIPT-RENDERED paragraph 6')
  })
})

describe("the demo's scripted sample", () => {
  let site: Server
  let origin: string
  beforeAll(async () => {
    // The files as the site serves them from public/: the page says "Loading the article…" until its script runs.
    site = createServer((request, response) => {
      const name = (request.url ?? '').replace(/^\/reader-samples\//, '')
      if (!/^scripted-page\.(html|js)$/.test(name)) return void response.writeHead(404).end()
      response.writeHead(200, { 'content-type': name.endsWith('.js') ? 'text/javascript' : 'text/html' })
      response.end(readFileSync(join('public/reader-samples', name)))
    })
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve))
    origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`
  })
  afterAll(() => new Promise((resolve) => site?.close(resolve)))

  it('answers its article by default, not its loading line', async () => {
    const { status, body, response } = await read(`${origin}/reader-samples/scripted-page.html`, {
      address: nextAddress(),
    })
    expect(status).toBe(200)
    expect(response.headers.get('x-engine')).toBe('browser')
    expect(body.data.content).toContain('single-page app')
    expect(body.data.content).not.toContain('Loading the article')
  })
})

describe('browser time per key and per address', () => {
  it('past its seconds a minute: the default reads directly with a warning, X-Engine: browser is refused with 429', async () => {
    const from = nextAddress()
    const seconds = readerBrowserSeconds.anonymous
    // A page that never finishes loading holds the browser until this address's seconds are spent.
    const spent = await read(api.web.url('/hostile/never-loads'), {
      address: from,
      headers: { 'x-engine': 'browser', 'x-timeout': '60' },
    })
    expect(spent.status).toBe(429)
    expect(spent.body.detail).toContain(`(${seconds} s a minute)`)

    const page = api.web.url('/browser/js?fallback=1')
    const fallback = await read(page, { address: from })
    expect(fallback.status).toBe(200)
    expect(fallback.response.headers.get('x-engine')).toBe('direct')
    expect(fallback.body.data.warning).toMatch(
      new RegExp(`your browser time \\(${seconds} s a minute\\) is used up: read without the browser`),
    )
    expect(fallback.body.data.content).not.toContain('SCRIPT-RENDERED')
    const text = await call('GET', `/r/${page}`, { address: from, headers: fresh })
    expect(text.status).toBe(200)
    expect(text.body).toMatch(/\nWarning: The page seems to write its text with a script, and your browser time/)
    // The fallback is not kept: once the time is back, the page is rendered again.
    const again = await call('GET', `/r/${page}`, { address: from, headers: { accept: 'application/json' } })
    expect(again.response.headers.get('x-cache')).toBe('miss')
    expect(again.body.data.warning).toMatch(/is used up/)

    const refused = await read(api.web.url('/browser/js'), { address: from, headers: { 'x-engine': 'browser' } })
    expect(refused.status).toBe(429)
    expect(refused.body.detail).toMatch(/^The browser engine's time for your key or address is used up/)
    expect(Number(refused.response.headers.get('retry-after'))).toBeGreaterThan(0)

    // Another address, and a key sent from the same address, have their own time.
    const other = await read(api.web.url('/browser/js'), { address: nextAddress() })
    expect(other.response.headers.get('x-engine')).toBe('browser')
    const { apiKey } = await keyWithBalance(api.database.db, 1_000_000)
    const keyed = await read(api.web.url('/browser/js'), { address: from, bearer: apiKey })
    expect(keyed.status).toBe(200)
    expect(keyed.response.headers.get('x-engine')).toBe('browser')
    expect(keyed.body.data.content).toContain('SCRIPT-RENDERED paragraph 6')
  }, 60_000)
})
