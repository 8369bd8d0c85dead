import { describe, expect, it } from 'vitest'
import { call } from '../support/api'
import { apiWithWeb } from '../support/api-with-web'

/** The browser engine through GET /r/{url}: pages served on loopback (the opt-in lets the reader reach them). */
// Every read comes from one address: browser time is not what these tests measure (reader-default-engine does).
const api = apiWithWeb({
  READER_ALLOW_PRIVATE_NETWORKS: 'true',
  READER_CACHE_TTL_SECONDS: '0',
  READER_BROWSER_SECONDS_PER_MINUTE: '3600',
})

const read = (path: string, headers: Record<string, string> = {}) =>
  call('GET', `/r/${api.web.url(path)}`, { headers: { accept: 'application/json', ...headers } })

describe('X-Engine', () => {
  it('reads a page whose text a script inserts: empty with direct, complete with browser and auto', async () => {
    const direct = await read('/browser/js', { 'x-engine': 'direct' })
    expect(direct.status).toBe(200)
    expect(direct.body.data.content).not.toContain('SCRIPT-RENDERED')
    expect(direct.body.data.engine).toBe('direct')

    const browser = await read('/browser/js', { 'x-engine': 'browser' })
    expect(browser.status).toBe(200)
    expect(browser.body.data.engine).toBe('browser')
    expect(browser.body.data.content).toContain('Rendered by a script')
    expect(browser.body.data.content).toContain('SCRIPT-RENDERED paragraph 6')

    const auto = await read('/browser/js', { 'x-engine': 'auto' })
    expect(auto.body.data.engine).toBe('browser')
    expect(auto.body.data.content).toContain('SCRIPT-RENDERED paragraph 6')
  })

  it('auto keeps the direct answer when it has enough text', async () => {
    const { body } = await read('/article', { 'x-engine': 'auto' })
    expect(body.data.engine).toBe('direct')
    expect(body.data.content).toContain('## Numbers')
  })

  it('waits for X-Wait-For-Selector, and for X-Target-Selector', async () => {
    const plain = await read('/browser/late', { 'x-engine': 'browser', 'x-respond-timing': 'visible-content' })
    expect(plain.body.data.content).toContain('EARLY-MARKER')
    expect(plain.body.data.content).not.toContain('LATE-MARKER')
    const waited = await read('/browser/late', { 'x-wait-for-selector': '#late' })
    expect(waited.status).toBe(200)
    expect(waited.body.data.content).toContain('LATE-MARKER arrived')
    const targeted = await read('/browser/late', { 'x-engine': 'browser', 'x-target-selector': '#late' })
    expect(targeted.body.data.content).toBe('LATE-MARKER arrived')
  })

  it('refuses with 504 when the awaited selector never shows', async () => {
    const { status, body } = await read('/browser/late', { 'x-wait-for-selector': '#never', 'x-timeout': '3' })
    expect(status).toBe(504)
    expect(body.detail).toMatch(/X-Wait-For-Selector/)
  })

  it('reads shadow roots with X-With-Shadow-Dom and iframes with X-With-Iframe', async () => {
    const shadowless = await read('/browser/shadow', { 'x-engine': 'browser' })
    expect(shadowless.body.data.content).toContain('LIGHT-MARKER')
    expect(shadowless.body.data.content).not.toContain('SHADOW-MARKER')
    const shadow = await read('/browser/shadow', { 'x-with-shadow-dom': 'true' })
    expect(shadow.body.data.content).toContain('SHADOW-MARKER')
    expect(shadow.body.data.content).toContain('LIGHT-MARKER')

    const frameless = await read('/browser/iframe', { 'x-engine': 'browser' })
    expect(frameless.body.data.content).not.toContain('IFRAME-MARKER')
    const framed = await read('/browser/iframe', { 'x-with-iframe': 'true' })
    expect(framed.body.data.content).toContain('OUTER-MARKER')
    expect(framed.body.data.content).toContain('IFRAME-MARKER')
  })

  it('sends the locale, user agent, referer and cookies asked for, the cookies to that page only', async () => {
    const { body } = await read('/browser/echo', {
      'x-engine': 'browser',
      'x-locale': 'de-DE',
      'x-user-agent': 'TestAgent/9',
      'x-referer': 'https://referrer.example/',
      'x-set-cookie': 'session=abc123; Domain=evil.example, theme=dark',
      'x-return-format': 'text',
    })
    const text = body.data.text
    expect(text).toContain('UA=TestAgent/9')
    expect(text).toMatch(/LANG=de-DE/)
    expect(text).toContain('REF=https://referrer.example/')
    expect(text).toMatch(/COOKIE=session=abc123; theme=dark/)
    expect(text).toMatch(/JS-LANG=de-DE/)
    expect(text).toMatch(/JS-COOKIE=session=abc123; theme=dark/)
    // The next caller's context starts empty.
    const next = await read('/browser/echo', { 'x-engine': 'browser', 'x-return-format': 'text' })
    expect(next.body.data.text).toMatch(/COOKIE=\s*$/m)
  })

  it('refuses browser-only options with X-Engine: direct, and injectPageScript unless configured', async () => {
    const { status, body } = await read('/article', { 'x-engine': 'direct', 'x-wait-for-selector': 'p' })
    expect(status).toBe(422)
    expect(body.detail).toMatch(/X-Wait-For-Selector needs the browser engine/)
  })
})
