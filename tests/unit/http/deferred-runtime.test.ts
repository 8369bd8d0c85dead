import { describe, expect, it } from 'vitest'
import { deferRuntime, RuntimeMarkupNotFound } from '~/server/http/deferred-runtime'

/** A page as Start renders it live: every tag with the request's nonce, the entry last. */
const nonce = 'n0nce+/='
const page = (stamp = ` nonce="${nonce}"`) =>
  `<html><head><link rel="stylesheet" href="/assets/styles.css"${stamp}/>` +
  `<link rel="modulepreload" href="/assets/index-A.js" fetchPriority="low"${stamp}/>` +
  `<link rel="modulepreload" href="/assets/route-B.js" fetchPriority="low"${stamp}/></head>` +
  `<body><div id="app" data-mounted="false"><p>balance</p></div>` +
  `<script${stamp} data-tsr-stream-part="">self.$_TSR={}</script>` +
  `<script${stamp} data-tsr-stream-part="">$_TSR.e()</script>` +
  `<script type="module" async="" src="/assets/index-A.js"${stamp}></script></body></html>`

/** The loader's call as the page carries it: parsed, so its inlined text must be a complete function. */
function loaderCall(html: string) {
  const [, attributes, code] = html.match(/<script type="module"([^>]*)>(\(function[\s\S]*?)<\/script>/) ?? []
  expect(code).toBeDefined()
  expect(() => new Function(code!)).not.toThrow()
  const args = JSON.parse(`[${code!.slice(code!.lastIndexOf(')(') + 2, -1)}]`)
  return { attributes, args }
}

describe('deferring the client runtime of a page', () => {
  it('replaces a live page’s preloads and entry by the loader, with the nonce, leaving the hydration data inline', () => {
    const { html, data } = deferRuntime(page(), { kind: 'live', page: '/api-dashboard', nonce, startAtIdle: true })
    expect(data).toBeUndefined()
    expect(html).not.toContain('<link rel="modulepreload"')
    expect(html).not.toContain('async="" src=')
    expect(html).toContain('data-tsr-stream-part="">self.$_TSR={}</script>')
    expect(html).toContain('<link rel="stylesheet"')
    const { attributes, args } = loaderCall(html)
    expect(attributes).toBe(` nonce="${nonce}"`)
    expect(args).toEqual([['/assets/route-B.js'], '/assets/index-A.js', null, true])
  })

  it('moves a prerendered page’s hydration data to a file and starts on demand', () => {
    const { html, data } = deferRuntime(page(''), {
      kind: 'prerendered',
      page: 'index.html',
      dataPath: (body) => `/_hydration/${body.length}.js`,
    })
    expect(data).toEqual({ path: '/_hydration/24.js', body: 'self.$_TSR={}\n;$_TSR.e()' })
    expect(html).not.toContain('data-tsr-stream-part')
    const { attributes, args } = loaderCall(html)
    expect(attributes).toBe('')
    expect(args).toEqual([['/assets/route-B.js'], '/assets/index-A.js', '/_hydration/24.js', false])
  })

  it('names the page and what it did not find when Start’s markup changed', () => {
    const live = { kind: 'live', page: '/api-reference', nonce, startAtIdle: false } as const
    const withoutEntry = page().replace(/<script type="module"[^>]*><\/script>/, '')
    expect(() => deferRuntime(withoutEntry, live)).toThrow(RuntimeMarkupNotFound)
    expect(() => deferRuntime(withoutEntry, live)).toThrow(/\/api-reference: the entry script .* not found/)
    const withoutPreloads = page().replace(/<link rel="modulepreload"[^>]*>/g, '')
    expect(() => deferRuntime(withoutPreloads, live)).toThrow(/the module preloads .* not found/)
    const withoutData = page('').replace(/<script data-tsr-stream-part="">[^<]*<\/script>/g, '')
    const prerendered = { kind: 'prerendered', page: 'ja/index.html', dataPath: () => '/_hydration/x.js' } as const
    expect(() => deferRuntime(withoutData, prerendered)).toThrow(/ja\/index.html: the router hydration data/)
    // A live page keeps its data inline: it needs none of it found.
    expect(() => deferRuntime(page().replace(/data-tsr-stream-part=""/g, ''), live)).not.toThrow()
  })

  it('fetches the chunks of the catalogs the page names with its modules, first', () => {
    const catalogChunks = {
      'messages:de': '/assets/messages-de.js',
      'app:de': '/assets/app-de.js',
      'messages:ja': '/assets/messages-ja.js',
    }
    const live = { kind: 'live', page: '/de/api-dashboard', nonce, startAtIdle: true, catalogChunks } as const
    const dashboard = page().replace('<html>', '<html lang="de" data-catalogs="app">')
    expect(loaderCall(deferRuntime(dashboard, live).html).args[0]).toEqual([
      '/assets/messages-de.js',
      '/assets/app-de.js',
      '/assets/route-B.js',
    ])
    // A marketing page reads the page catalog only; a locale without a recorded chunk (a dev server) adds none.
    const marketing = page().replace('<html>', '<html lang="ja">')
    expect(loaderCall(deferRuntime(marketing, live).html).args[0]).toEqual([
      '/assets/messages-ja.js',
      '/assets/route-B.js',
    ])
    const unknown = page().replace('<html>', '<html lang="ko" data-catalogs="app">')
    expect(loaderCall(deferRuntime(unknown, live).html).args[0]).toEqual(['/assets/route-B.js'])
  })
})
