import { createSocket } from 'node:dgram'
import { createServer, type AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BrowserPool, chromiumPathOf } from '~/server/providers/reader/browser/chromium'
import { renderPage } from '~/server/providers/reader/browser/render'
import { fetchPage } from '~/server/providers/reader/node-fetch'
import { fetchLimitsOf } from '~/server/providers/reader/read-page'
import type { FetchLimits } from '~/server/providers/reader/fetcher'
import { startFakeDns, type FakeDns } from '../support/dns'
import { startWebFixtures, type WebFixtures } from '../support/web-fixtures'

/**
 * SSRF through the browser engine: a page on a public-looking host (news.test, 127.0.0.2 through the tests'
 * DNS, the one address these limits allow) whose scripts, images, iframes, fetches, XHRs, beacons, event
 * sources, WebSockets, prefetches, redirects, service worker, download and file:/chrome: frames all aim at
 * loopback (127.0.0.1, by address and by names resolving there) and private addresses. The fixture server
 * listening on 127.0.0.1 counts what reaches it: nothing may.
 */
let web: WebFixtures
let dns: FakeDns
let pool: BrowserPool
beforeAll(async () => {
  web = await startWebFixtures(['127.0.0.1', '127.0.0.2'])
  dns = await startFakeDns({
    'news.test': { A: ['127.0.0.2'] },
    'internal.test': { A: ['127.0.0.1'] },
    'rebind.test': { A: ['127.0.0.2', '127.0.0.1'] },
    'private.test': { A: ['10.0.0.1'] },
    'metadata.test': { A: ['169.254.169.254'] },
    'v6loop.test': { AAAA: ['::1'] },
  })
  const path = chromiumPathOf({ CHROMIUM_PATH: process.env.CHROMIUM_PATH })
  if (!path) throw new Error('Chromium not found: apt-get install -y chromium, or set CHROMIUM_PATH')
  pool = new BrowserPool(
    { CHROMIUM_PATH: path, READER_BROWSER_PAGES: 2, READER_BROWSER_MEMORY_MB: 256, READER_BROWSER_RECYCLE_PAGES: 50 },
    path,
  )
})
afterAll(async () => {
  await pool?.close()
  await dns?.close()
  await web?.close()
})

const limits = (): FetchLimits => ({
  allows: (address) => address === '127.0.0.2',
  dnsServers: [dns.server],
  timeoutMs: 20_000,
  maxBytes: 10 * 1024 * 1024,
  maxRedirects: 5,
})

describe('the browser engine keeps to the address rules', () => {
  it('reads the page and reaches nothing it points at on loopback or private addresses', async () => {
    const port = web.port
    const targets = [
      `http://127.0.0.1:${port}`,
      `http://internal.test:${port}`,
      `http://rebind.test:${port}`,
      `http://localhost:${port}`,
      `http://[::1]:${port}`,
      `http://v6loop.test:${port}`,
      `http://2130706433:${port}`,
      `http://0x7f.1:${port}`,
      `http://private.test:${port}`,
      `http://10.0.0.1:${port}`,
      `http://169.254.169.254`,
      `http://metadata.test`,
    ]
    const url = new URL(`http://news.test:${port}/browser/hostile?to=${encodeURIComponent(targets.join(','))}`)
    const rendered = await renderPage(pool, url, { timing: 'network-idle', withIframes: true }, limits())
    expect(rendered.html).toContain('HOSTILE-MARKER')
    // The page itself came from the allowed address; nothing else was reached.
    const loopbackHits = web.hits.filter((hit) => hit.localAddress !== '127.0.0.2')
    expect(loopbackHits).toEqual([])
    const ssrfHits = web.hits.filter((hit) => hit.path.includes('/ssrf/'))
    expect(ssrfHits).toEqual([])
    // The guard saw the attempts and refused them (the browser never connected on its own).
    const refused = rendered.guard!.refused.map((entry) => entry.url)
    expect(refused.some((u) => u.startsWith(`http://127.0.0.1:${port}/ssrf/`))).toBe(true)
    expect(refused.some((u) => u.startsWith(`http://internal.test:${port}/ssrf/`))).toBe(true)
    expect(refused.some((u) => u.startsWith(`http://rebind.test:${port}/ssrf/`))).toBe(true)
    expect(refused.some((u) => u.includes('/redirect?to='))).toBe(true)
  })

  it('sends nothing over WebRTC: no STUN or TURN to loopback over UDP or TCP, and the page learns no candidate', async () => {
    // Issue 38: ICE servers at an IP literal made Chromium send UDP to internal hosts, past every address rule.
    const udp = createSocket('udp4')
    const datagrams: Buffer[] = []
    udp.on('message', (message) => datagrams.push(message))
    await new Promise<void>((resolve) => udp.bind(0, '127.0.0.1', resolve))
    let connections = 0
    const tcp = createServer((socket) => {
      connections++
      socket.destroy()
    })
    await new Promise<void>((resolve) => tcp.listen(0, '127.0.0.1', resolve))
    try {
      const query = `host=127.0.0.1&udp=${udp.address().port}&tcp=${(tcp.address() as AddressInfo).port}`
      const url = new URL(`http://news.test:${web.port}/hostile/webrtc?${query}`)
      const rendered = await renderPage(pool, url, { waitForSelector: '#candidates' }, limits())
      expect(rendered.html).toContain('WEBRTC-MARKER')
      expect(rendered.html).toContain('CANDIDATES 0')
      // A last datagram or connection would have arrived by now: the page waited 2.5 s after asking.
      await new Promise((resolve) => setTimeout(resolve, 500))
      expect(datagrams).toEqual([])
      expect(connections).toBe(0)
    } finally {
      udp.close()
      tcp.close()
    }
  })

  it('refuses the page itself when its host resolves to an address the rules refuse', async () => {
    const url = new URL(`http://internal.test:${web.port}/browser/js`)
    await expect(renderPage(pool, url, {}, limits())).rejects.toMatchObject({ problem: 'address' })
    expect(web.hits.filter((hit) => hit.localAddress === '127.0.0.1')).toEqual([])
  })

  it('gives each page a fresh context: cookies one caller set are gone for the next', async () => {
    const url = new URL(`http://news.test:${web.port}/browser/echo`)
    const first = await renderPage(pool, url, { cookies: [{ name: 'secret', value: 's1' }] }, limits())
    expect(first.html).toContain('COOKIE=secret=s1')
    const second = await renderPage(pool, url, {}, limits())
    expect(second.html).not.toContain('secret=s1')
  })
})

describe("this site's own origin", () => {
  it('is read on loopback under the address rules, and no other origin there is', async () => {
    const own = fetchLimitsOf(
      {
        READER_ALLOW_PRIVATE_NETWORKS: false,
        READER_DNS_SERVERS: [dns.server],
        PUBLIC_BASE_URL: `http://localhost:${web.port}`,
        PUBLIC_API_BASE_URL: `http://localhost:${web.port}`,
      },
      10,
    )
    expect(own.ownOrigins).toContain(`http://127.0.0.1:${web.port}`)
    const page = await fetchPage(new URL(web.url('/article')), own)
    for await (const chunk of page.body) void chunk
    expect(web.hits.map((hit) => hit.path)).toContain('/article')
    // The same address under another name or port is still refused.
    await expect(fetchPage(new URL(`http://127.0.0.2:${web.port}/article`), own)).rejects.toMatchObject({
      problem: 'address',
    })
    await expect(fetchPage(new URL(`http://internal.test:${web.port}/article`), own)).rejects.toMatchObject({
      problem: 'address',
    })
    await expect(fetchPage(new URL(`http://127.0.0.1:${web.port + 1}/article`), own)).rejects.toMatchObject({
      problem: 'address',
    })
  })
})
