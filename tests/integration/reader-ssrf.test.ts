import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { PageNotRead } from '~/server/domain/refusals'
import { fetchPage } from '~/server/providers/reader/node-fetch'
import { call, apiDatabase } from '../support/api'
import { startFakeDns, type FakeDns } from '../support/dns'
import { startWebFixtures, type WebFixtures } from '../support/web-fixtures'

/**
 * Reliability test 33: the reader refuses loopback, private, link-local and the like in every spelling and
 * after every redirect, unless READER_ALLOW_PRIVATE_NETWORKS=true. Every URL below reaches a fixture on
 * loopback (so the opt-in can prove each one really leads there); addresses that cannot be served from
 * loopback (private ranges, cloud metadata) are checked without any connection in tests/unit/reader.
 */
apiDatabase({ env: { READER_CACHE_TTL_SECONDS: '0' } })
let web: WebFixtures
let dns: FakeDns
beforeAll(async () => {
  web = await startWebFixtures(['127.0.0.1', '127.0.0.2', '127.255.255.254', '::1'])
  dns = await startFakeDns({
    'loopback.test': { A: ['127.0.0.1'] },
    'second.test': { A: ['127.0.0.2'] },
    'v6.test': { AAAA: ['::1'] },
    'mapped.test': { AAAA: ['::ffff:127.0.0.1'] },
    'zero.test': { A: ['0.0.0.0'] },
    'unspecified6.test': { AAAA: ['::'] },
    'both.test': { A: ['127.0.0.2', '127.0.0.1'] },
  })
})
afterAll(async () => {
  await dns.close()
  await web.close()
})
beforeEach(() => {
  web.hits.length = 0
})

interface Row {
  url: (port: number) => string
  /** The loopback address whose fixture answers once the opt-in allows it. */
  servedBy: RegExp
  /** Resolved by the fake DNS server on loopback rather than the system's resolver (/etc/hosts). */
  fakeDns?: boolean
}

const at =
  (host: string, path = '/whoami') =>
  (port: number) =>
    `http://${host}:${port}${path}`
const redirect =
  (host: string, to: string, status = 302) =>
  (port: number) =>
    `http://${host}:${port}/redirect?status=${status}&to=${encodeURIComponent(to.replace('PORT', String(port)))}`
const v4 = /^127\.0\.0\.1$/
const v6 = /^::1$/

const table: Array<[string, Row]> = [
  ['127.0.0.1', { url: at('127.0.0.1'), servedBy: v4 }],
  ['localhost (/etc/hosts)', { url: at('localhost'), servedBy: /^(127\.0\.0\.1|::1)$/ }],
  ['LOCALHOST in capitals', { url: at('LOCALHOST'), servedBy: /^(127\.0\.0\.1|::1)$/ }],
  ['decimal 2130706433', { url: at('2130706433'), servedBy: v4 }],
  ['hex 0x7f000001', { url: at('0x7f000001'), servedBy: v4 }],
  ['dotted hex 0x7f.0x0.0x0.0x1', { url: at('0x7f.0x0.0x0.0x1'), servedBy: v4 }],
  ['dotted octal 0177.0.0.1', { url: at('0177.0.0.1'), servedBy: v4 }],
  ['octal 017700000001', { url: at('017700000001'), servedBy: v4 }],
  ['short 127.1', { url: at('127.1'), servedBy: v4 }],
  ['short 127.0.1', { url: at('127.0.1'), servedBy: v4 }],
  ['mixed 0x7f.1', { url: at('0x7f.1'), servedBy: v4 }],
  ['percent-encoded %31%32%37.0.0.1', { url: at('%31%32%37.0.0.1'), servedBy: v4 }],
  ['full-width digits', { url: at('１２７.０.０.１'), servedBy: v4 }],
  ['[::1]', { url: at('[::1]'), servedBy: v6 }],
  ['IPv4-mapped [::ffff:127.0.0.1]', { url: at('[::ffff:127.0.0.1]'), servedBy: v4 }],
  ['IPv4-mapped hex [::ffff:7f00:1]', { url: at('[::ffff:7f00:1]'), servedBy: v4 }],
  ['IPv4-mapped in full', { url: at('[0:0:0:0:0:ffff:127.0.0.1]'), servedBy: v4 }],
  ['unspecified 0.0.0.0', { url: at('0.0.0.0'), servedBy: v4 }],
  ['unspecified as 0', { url: at('0'), servedBy: v4 }],
  ['unspecified [::]', { url: at('[::]'), servedBy: v6 }],
  ['other loopback 127.0.0.2', { url: at('127.0.0.2'), servedBy: /^127\.0\.0\.2$/ }],
  ['top of loopback 127.255.255.254', { url: at('127.255.255.254'), servedBy: /^127\.255\.255\.254$/ }],
  ['a name with an A record 127.0.0.1', { url: at('loopback.test'), servedBy: v4, fakeDns: true }],
  ['a name in capitals', { url: at('LoopBack.Test'), servedBy: v4, fakeDns: true }],
  ['a name with an A record 127.0.0.2', { url: at('second.test'), servedBy: /^127\.0\.0\.2$/, fakeDns: true }],
  ['a name with an AAAA record ::1', { url: at('v6.test'), servedBy: v6, fakeDns: true }],
  ['a name with an AAAA record ::ffff:127.0.0.1', { url: at('mapped.test'), servedBy: v4, fakeDns: true }],
  ['a name with an A record 0.0.0.0', { url: at('zero.test'), servedBy: v4, fakeDns: true }],
  ['a name with an AAAA record ::', { url: at('unspecified6.test'), servedBy: v6, fakeDns: true }],
  ['a name with two loopback records', { url: at('both.test'), servedBy: /^127\.0\.0\.[12]$/, fakeDns: true }],
  [
    'redirect to localhost',
    { url: redirect('127.0.0.1', 'http://localhost:PORT/whoami'), servedBy: /^(127\.0\.0\.1|::1)$/ },
  ],
  [
    '307 redirect to the decimal spelling',
    { url: redirect('127.0.0.1', 'http://2130706433:PORT/whoami', 307), servedBy: v4 },
  ],
  [
    '308 redirect to an IPv4-mapped address',
    { url: redirect('127.0.0.2', 'http://[::ffff:127.0.0.1]:PORT/whoami', 308), servedBy: v4 },
  ],
  [
    '301 redirect to a name of the fake zone',
    { url: redirect('127.0.0.1', 'http://v6.test:PORT/whoami', 301), servedBy: v6, fakeDns: true },
  ],
  ['relative redirect on 127.0.0.2', { url: redirect('127.0.0.2', '/whoami'), servedBy: /^127\.0\.0\.2$/ }],
  [
    'three hops, then [::1]',
    {
      url: (port) => `http://127.0.0.1:${port}/chain?n=3&to=${encodeURIComponent(`http://[::1]:${port}/whoami`)}`,
      servedBy: v6,
    },
  ],
  [
    'a fake-zone name redirecting to [::]',
    { url: redirect('second.test', 'http://[::]:PORT/whoami'), servedBy: v6, fakeDns: true },
  ],
]

const readAs = (row: Row, allowPrivate: boolean) => {
  process.env.READER_ALLOW_PRIVATE_NETWORKS = String(allowPrivate)
  process.env.READER_DNS_SERVERS = row.fakeDns ? dns.server : ''
  return call('GET', `/r/${row.url(web.port)}`, { headers: { accept: 'application/json' } })
}

describe('the reader’s address rule (SSRF)', () => {
  it(`covers at least 25 addresses and redirect chains (${table.length})`, () => {
    expect(table.length).toBeGreaterThanOrEqual(25)
  })

  describe.each(table)('%s', (_, row) => {
    it('is refused by default with 403, before any request reaches it', async () => {
      const { status, body } = await readAs(row, false)
      expect(status).toBe(403)
      expect(body.detail).toMatch(/^Refused to read .+: it is not a public address$/)
      // A redirecting row's first hop is refused too; no fixture was asked for anything.
      expect(web.hits).toEqual([])
    })

    it('is read with READER_ALLOW_PRIVATE_NETWORKS=true, from the loopback fixture it names', async () => {
      const { status, body } = await readAs(row, true)
      expect(status).toBe(200)
      const servedBy = body.data.content.match(/SERVED-BY (\S+)/)?.[1]
      expect(servedBy).toMatch(row.servedBy)
    })
  })

  it('never lifts the scheme rule: the opt-in still refuses file:, ftp: and the like', async () => {
    process.env.READER_ALLOW_PRIVATE_NETWORKS = 'true'
    for (const url of ['file:///etc/passwd', `ftp://127.0.0.1:${web.port}/`, `gopher://127.0.0.1:${web.port}/`])
      expect((await call('GET', `/r/${url}`, { headers: { accept: 'application/json' } })).status).toBe(422)
  })
})

describe('re-checking every redirect', () => {
  /** Only 127.0.0.1 stands for "public" here, so the first hop is allowed and each later one must be checked. */
  const limits = (servers?: string[]) => ({
    allows: (address: string) => address === '127.0.0.1',
    dnsServers: servers,
    timeoutMs: 5000,
    maxBytes: 1024 * 1024,
    maxRedirects: 5,
  })

  it.each([
    ['127.0.0.2', 'http://127.0.0.2:PORT/whoami'],
    ['[::1]', 'http://[::1]:PORT/whoami'],
    ['0.0.0.0', 'http://0.0.0.0:PORT/whoami'],
    ['[::ffff:127.0.0.2]', 'http://[::ffff:127.0.0.2]:PORT/whoami'],
    ['a name that resolves to 127.0.0.2', 'http://second.test:PORT/whoami'],
    ['a name that resolves to ::1', 'http://v6.test:PORT/whoami'],
  ])('refuses a redirect from an allowed address to %s, after the first hop and before the second', async (_, to) => {
    const target = to.replace('PORT', String(web.port))
    const start = new URL(`http://127.0.0.1:${web.port}/chain?n=2&to=${encodeURIComponent(target)}`)
    const outcome = await fetchPage(start, limits([dns.server])).catch((error: unknown) => error)
    expect(outcome).toBeInstanceOf(PageNotRead)
    expect((outcome as PageNotRead).problem).toBe('address')
    // Both hops on 127.0.0.1 were asked; the refused address never was.
    expect(web.hits.map((hit) => hit.localAddress)).toEqual(['127.0.0.1', '127.0.0.1'])
  })

  it('connects to the address it checked: a name is looked up once per hop, not again to connect', async () => {
    dns.questions.length = 0
    const page = await fetchPage(new URL(`http://loopback.test:${web.port}/whoami`), limits([dns.server]))
    for await (const _ of page.body) void _
    // One A and one AAAA question, both before connecting.
    expect(dns.questions).toEqual(['loopback.test', 'loopback.test'])
    expect(web.hits.map((hit) => hit.localAddress)).toEqual(['127.0.0.1'])
  })
})
