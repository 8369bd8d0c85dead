import { afterEach, describe, expect, it, vi } from 'vitest'
import { resetDeferralWarning, withDeferredRuntime } from '~/server/http/live-deferral'

/**
 * The rewrite the liveDeferral middleware applies to a live page (tests/integration/request-pipeline.test.ts sends
 * pages through the middleware itself; the e2e tests load the built pages in Chromium). Here: the markups it meets.
 */

/** What Start renders live: the request's nonce on every tag, the preloads in the head and the entry last. */
const rendered = (nonce: string) =>
  `<html><head><link rel="modulepreload" href="/assets/index-A.js" fetchPriority="low" nonce="${nonce}"/>` +
  `<link rel="modulepreload" href="/assets/tab-B.js" fetchPriority="low" nonce="${nonce}"/></head>` +
  `<body><div id="app" data-mounted="false">${'<p>key</p>'.repeat(200)}</div>` +
  `<script nonce="${nonce}" data-tsr-stream-part="">self.$_TSR={}</script>` +
  `<script type="module" async="" src="/assets/index-A.js" nonce="${nonce}"></script></body></html>`

const html = { 'content-type': 'text/html; charset=utf-8' }
const nonce = 'n0nce-of-the-request'
const through = async (path: string, answer: (context: { nonce: string }) => Response) => ({
  response: await withDeferredRuntime(answer({ nonce }), nonce, path),
  context: { nonce },
})

afterEach(() => {
  vi.restoreAllMocks()
  resetDeferralWarning()
})

describe('live deferral', () => {
  it('rewrites a live page: the loader under the request’s nonce in place of preloads and entry', async () => {
    const { response, context } = await through(
      '/api-dashboard',
      (ctx) => new Response(rendered(ctx.nonce as string), { headers: { ...html, 'content-length': '1' } }),
    )
    const nonce = context.nonce as string
    const text = await response.text()
    expect(text).not.toContain('<link rel="modulepreload"')
    expect(text).not.toContain('async="" src=')
    expect(text).toContain(`<script type="module" nonce="${nonce}">(function`)
    expect(text).toContain(`data-tsr-stream-part="">self.$_TSR={}</script>`)
    expect(response.headers.get('content-length')).toBe(String(new TextEncoder().encode(text).byteLength))
    expect(response.headers.get('content-type')).toBe(html['content-type'])
  })

  it('starts the app’s screens at idle in every locale, and lets every other live page wait for a need', async () => {
    const startsAtIdle = async (path: string) => {
      const { response } = await through(path, (ctx) => new Response(rendered(ctx.nonce as string), { headers: html }))
      const text = await response.text()
      return JSON.parse(
        text.slice(text.lastIndexOf(',', text.lastIndexOf(')</script>')) + 1, text.lastIndexOf(')</script>')),
      )
    }
    for (const path of ['/api-dashboard', '/de/api-dashboard/usage', '/zh-CN/sign-in', '/sandbox-checkout/cs_test_1'])
      expect(await startsAtIdle(path), path).toBe(true)
    for (const path of ['/api-reference', '/?ref=newsletter', '/ja/models', '/api-dashboards', '/news/sign-in-notes'])
      expect(await startsAtIdle(path), path).toBe(false)
  })

  it('leaves prerendered copies, encoded answers and non-HTML alone', async () => {
    const json = () => Response.json({ html: '<script type="module" async="" src="/x.js"></script>' })
    const prerendered = new Response(rendered('x'), { headers: { ...html, 'x-prerendered': '1' } })
    expect((await through('/', () => prerendered)).response).toBe(prerendered)
    const encoded = new Response(rendered('x'), { headers: { ...html, 'content-encoding': 'gzip' } })
    expect((await through('/api-reference', () => encoded)).response).toBe(encoded)
    const data = json()
    expect((await through('/api-dashboard', () => data)).response).toBe(data)
  })

  it('serves a page whose markup it does not know as rendered, warning once', async () => {
    const warn = vi.spyOn(console, 'error').mockImplementation(() => undefined)
    const changed = '<html><body><script type="module" src="/assets/index-A.js"></script></body></html>'
    for (let i = 0; i < 2; i++) {
      const { response } = await through('/api-dashboard', () => new Response(changed, { headers: html }))
      expect(await response.text()).toBe(changed)
    }
    const lines = warn.mock.calls.map(([line]) => String(line))
    expect(lines.filter((line) => line.includes('runtime not deferred'))).toHaveLength(1)
  })
})
