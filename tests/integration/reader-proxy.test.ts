import { createServer, type Server } from 'node:https'
import type { AddressInfo } from 'node:net'
import { getCACertificates, setDefaultCACertificates } from 'node:tls'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BrowserPool, chromiumPathOf } from '~/server/providers/reader/browser/chromium'
import { renderPage } from '~/server/providers/reader/browser/render'
import type { FetchLimits } from '~/server/providers/reader/fetcher'
import { fetchPage } from '~/server/providers/reader/node-fetch'
import { parseProxyUrl } from '~/server/providers/reader/proxy-url'
import { call } from '../support/api'
import { apiWithWeb } from '../support/api-with-web'
import { startFakeDns, type FakeDns } from '../support/dns'
import { selfSignedCertificate, startHttpProxy, startSocks5Proxy, type LoopbackProxy } from '../support/proxies'
import { startWebFixtures, type WebFixtures } from '../support/web-fixtures'

/**
 * X-Proxy-Url: the reader reaches pages through the caller's http, https or socks5 proxy, the browser engine
 * too, and the proxy's address obeys the address rules like a page's. The proxies and pages are loopback
 * servers: 127.0.0.2 (pages, as news.test) and 127.0.0.3 (proxies, as proxy.test) play public addresses, the
 * only ones these limits allow; 127.0.0.1 stays what it is, refused.
 */
const api = apiWithWeb({ READER_ALLOW_PRIVATE_NETWORKS: 'true', READER_CACHE_TTL_SECONDS: '3600' })

let web: WebFixtures
let dns: FakeDns
let secure: Server
let securePort: number
let httpProxy: LoopbackProxy
let httpsProxy: LoopbackProxy
let socksProxy: LoopbackProxy
let guardedProxy: LoopbackProxy
let loopbackProxy: LoopbackProxy
let pool: BrowserPool | undefined

beforeAll(async () => {
  const tls = selfSignedCertificate(['news.test', 'proxy.test'], ['127.0.0.2', '127.0.0.3'])
  // The test's own authority, trusted for this file's process only.
  setDefaultCACertificates([...getCACertificates('default'), tls.cert])
  web = await startWebFixtures(['127.0.0.1', '127.0.0.2'])
  secure = createServer(tls, (request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
    response.end(`<html><head><title>Secure</title></head><body><p>SECURE-MARKER ${request.url}</p></body></html>`)
  })
  securePort = await new Promise<number>((resolve) =>
    secure.listen(0, '127.0.0.2', () => resolve((secure.address() as AddressInfo).port)),
  )
  dns = await startFakeDns({
    'news.test': { A: ['127.0.0.2'] },
    'proxy.test': { A: ['127.0.0.3'] },
    'internal.test': { A: ['127.0.0.1'] },
    'loopproxy.test': { A: ['127.0.0.1'] },
  })
  const hosts = { 'news.test': '127.0.0.2' }
  httpProxy = await startHttpProxy('127.0.0.3', { hosts })
  httpsProxy = await startHttpProxy('127.0.0.3', { tls, hosts })
  socksProxy = await startSocks5Proxy('127.0.0.3')
  guardedProxy = await startHttpProxy('127.0.0.3', { auth: 'reader:s3cret', hosts })
  loopbackProxy = await startHttpProxy('127.0.0.1')
})
afterAll(async () => {
  await pool?.close()
  for (const proxy of [httpProxy, httpsProxy, socksProxy, guardedProxy, loopbackProxy]) await proxy?.close()
  await new Promise((resolve) => secure?.close(resolve))
  await dns?.close()
  await web?.close()
})

const limits = (proxyUrl: string): FetchLimits => ({
  allows: (address) => address === '127.0.0.2' || address === '127.0.0.3',
  dnsServers: [dns.server],
  timeoutMs: 10_000,
  maxBytes: 10 * 1024 * 1024,
  maxRedirects: 5,
  proxy: parseProxyUrl(proxyUrl),
})

async function textOf(url: string, proxyUrl: string): Promise<string> {
  const page = await fetchPage(new URL(url), limits(proxyUrl))
  const chunks: Buffer[] = []
  for await (const chunk of page.body) chunks.push(Buffer.from(chunk))
  return Buffer.concat(chunks).toString()
}

const proxyUrl = (proxy: LoopbackProxy, host = 'proxy.test') => proxy.url.replace('127.0.0.3', host)

describe('pages read through the caller’s proxy', () => {
  it('forwards an http page through an http and an https proxy, and tunnels it through socks5 to the checked address', async () => {
    for (const proxy of [httpProxy, httpsProxy, socksProxy]) {
      proxy.hits.length = 0
      web.hits.length = 0
      const text = await textOf(`http://news.test:${web.port}/whoami`, proxyUrl(proxy))
      expect(text).toContain('SERVED-BY 127.0.0.2')
      expect(proxy.hits).toHaveLength(1)
      expect(proxy.hits[0].target).toBe(
        proxy === socksProxy ? `127.0.0.2:${web.port}` : `http://news.test:${web.port}/whoami`,
      )
      expect(web.hits.map((hit) => hit.path)).toEqual(['/whoami'])
    }
  })

  it('tunnels an https page through each proxy, TLS checked against the page’s name', async () => {
    for (const proxy of [httpProxy, httpsProxy, socksProxy]) {
      proxy.hits.length = 0
      const text = await textOf(`https://news.test:${securePort}/secure`, proxyUrl(proxy))
      expect(text).toContain('SECURE-MARKER /secure')
      expect(proxy.hits.map((hit) => hit.target)).toEqual([`127.0.0.2:${securePort}`])
    }
  })

  it('sends the credentials in the proxy URL, and says so when the proxy wants others', async () => {
    const url = `http://news.test:${web.port}/whoami`
    const withCredentials = proxyUrl(guardedProxy).replace('http://', 'http://reader:s3cret@')
    expect(await textOf(url, withCredentials)).toContain('SERVED-BY')
    expect(guardedProxy.hits[0].auth).toBe(`Basic ${Buffer.from('reader:s3cret').toString('base64')}`)
    await expect(textOf(url, proxyUrl(guardedProxy))).rejects.toThrow(/refused the request \(HTTP 407/)
    await expect(textOf(`https://news.test:${securePort}/`, proxyUrl(guardedProxy))).rejects.toThrow(
      /refused to connect to news\.test:\d+ \(HTTP 407\)/,
    )
  })

  it('refuses a proxy on a loopback or private address, by address or by name, before connecting to it', async () => {
    const url = `http://news.test:${web.port}/whoami`
    for (const proxy of [loopbackProxy.url, proxyUrl(loopbackProxy, 'loopproxy.test'), 'socks5://10.0.0.1:1080'])
      await expect(textOf(url, proxy)).rejects.toThrow(/Refused to use the proxy .*: it is not a public address/)
    expect(loopbackProxy.hits).toEqual([])
  })

  it('still refuses a page on a refused address, through an allowed proxy', async () => {
    socksProxy.hits.length = 0
    httpProxy.hits.length = 0
    for (const proxy of [socksProxy, httpProxy])
      await expect(textOf(`http://internal.test:${web.port}/whoami`, proxyUrl(proxy))).rejects.toThrow(
        /not a public address/,
      )
    expect(socksProxy.hits).toEqual([])
    expect(httpProxy.hits).toEqual([])
  })

  it('sends every request of the browser engine through the proxy, the page’s iframe included', async () => {
    const path = chromiumPathOf({ CHROMIUM_PATH: process.env.CHROMIUM_PATH })
    if (!path) throw new Error('Chromium not found: apt-get install -y chromium, or set CHROMIUM_PATH')
    pool = new BrowserPool(
      { CHROMIUM_PATH: path, READER_BROWSER_PAGES: 1, READER_BROWSER_MEMORY_MB: 256, READER_BROWSER_RECYCLE_PAGES: 10 },
      path,
    )
    socksProxy.hits.length = 0
    web.hits.length = 0
    const url = new URL(`http://news.test:${web.port}/browser/iframe`)
    const rendered = await renderPage(pool, url, { withIframes: true }, limits(proxyUrl(socksProxy)))
    expect(rendered.html).toContain('IFRAME-MARKER')
    expect(socksProxy.hits.length).toBeGreaterThanOrEqual(2)
    expect(new Set(socksProxy.hits.map((hit) => hit.target))).toEqual(new Set([`127.0.0.2:${web.port}`]))
    expect(web.hits.map((hit) => hit.path)).toEqual(expect.arrayContaining(['/browser/iframe', '/browser/framed']))
  })
})

describe('X-Proxy-Url on the API', () => {
  const read = (headers: Record<string, string>) =>
    call('GET', `/r/${api.web.url('/whoami')}`, { headers: { accept: 'application/json', ...headers } })

  it('reads the page through the proxy named, never from the cache', async () => {
    socksProxy.hits.length = 0
    for (let i = 0; i < 2; i++) {
      const { status, body, response } = await read({ 'x-proxy-url': socksProxy.url })
      expect(status).toBe(200)
      expect(body.data.content).toContain('SERVED-BY 127.0.0.1')
      expect(response.headers.get('x-cache')).toBe('miss')
    }
    expect(socksProxy.hits.map((hit) => hit.target)).toEqual([`127.0.0.1:${api.web.port}`, `127.0.0.1:${api.web.port}`])
  })

  it('refuses other schemes and X-Proxy with 422 saying why, fetching nothing', async () => {
    for (const [headers, reason] of [
      [{ 'x-proxy-url': 'ftp://proxy.example:21' }, /must be an http, https or socks5 proxy, not ftp:/],
      [{ 'x-proxy-url': 'not a url' }, /must be a URL/],
      [{ 'x-proxy': 'us' }, /X-Proxy picks a proxy from a pool this server does not have/],
    ] as const) {
      const { status, body } = await read(headers)
      expect(status).toBe(422)
      expect(body.detail).toMatch(reason)
    }
    expect(api.web.hits).toEqual([])
  })
})
