import { describe, expect, it } from 'vitest'
import { addressKind, hostOf, isPublicAddress } from '~/server/providers/reader/address-policy'
import { targetUrl } from '~/server/providers/reader/page-rules'

/** The address a URL's host names, as the reader reads it (the URL parser canonicalises IPv4 spellings). */
const addressOf = (url: string) => hostOf(targetUrl(url)).host

/**
 * Addresses that cannot be served from loopback, so tests/integration/reader-ssrf.test.ts cannot fetch them:
 * here they are classified without any connection. Each must be refused.
 */
const refused: Array<[string, string]> = [
  ['http://10.0.0.1/', 'private'],
  ['http://172.16.0.1/', 'private'],
  ['http://172.31.255.255/', 'private'],
  ['http://192.168.1.1/', 'private'],
  ['http://100.64.0.1/', 'carrierGradeNat'],
  ['http://100.100.100.200/latest/meta-data/', 'carrierGradeNat'],
  ['http://169.254.169.254/latest/meta-data/', 'linkLocal'],
  ['http://0251.0376.0251.0376/', 'linkLocal'],
  ['http://2852039166/', 'linkLocal'],
  ['http://0xa9fea9fe/', 'linkLocal'],
  ['http://0xa9.254.0251.0xfe/', 'linkLocal'],
  ['http://[::ffff:169.254.169.254]/', 'linkLocal'],
  ['http://[::ffff:a9fe:a9fe]/', 'linkLocal'],
  ['http://[fd00:ec2::254]/', 'uniqueLocal'],
  ['http://[fc00::1]/', 'uniqueLocal'],
  ['http://[fe80::1]/', 'linkLocal'],
  ['http://224.0.0.1/', 'multicast'],
  ['http://239.255.255.250/', 'multicast'],
  ['http://[ff02::1]/', 'multicast'],
  ['http://255.255.255.255/', 'broadcast'],
  ['http://198.18.0.1/', 'reserved'],
  ['http://240.0.0.1/', 'reserved'],
  ['http://192.0.2.1/', 'reserved'],
  ['http://[2001:db8::1]/', 'reserved'],
  ['http://[64:ff9b::a9fe:a9fe]/', 'rfc6052'],
  ['http://[2002:a9fe:a9fe::]/', '6to4'],
  ['http://[2001::1]/', 'teredo'],
  ['http://[::a9fe:a9fe]/', 'reserved'],
  ['http://127.0.0.1/', 'loopback'],
  ['http://[::1]/', 'loopback'],
  ['http://0.0.0.0/', 'unspecified'],
  ['http://[::]/', 'unspecified'],
]

describe('the reader’s address policy', () => {
  it.each(refused)('refuses %s (%s)', (url, kind) => {
    const address = addressOf(url)
    expect(addressKind(address)).toBe(kind)
    expect(isPublicAddress(address)).toBe(false)
  })

  it.each(['http://93.184.216.34/', 'http://8.8.8.8/', 'http://[2606:4700:4700::1111]/', 'http://1.1.1.1/'])(
    'allows the public address of %s',
    (url) => {
      expect(isPublicAddress(addressOf(url))).toBe(true)
    },
  )

  it('does not take a host name for an address (names are resolved, then their addresses checked)', () => {
    expect(hostOf(new URL('http://metadata.google.internal/')).isAddress).toBe(false)
    expect(addressKind('metadata.google.internal')).toBe('not-an-address')
  })
})

describe('the URL a caller gives', () => {
  it('reads a URL without a scheme as https and drops its fragment', () => {
    expect(targetUrl('example.com/a?b=1#top').href).toBe('https://example.com/a?b=1')
    expect(targetUrl('localhost:8080/x').href).toBe('https://localhost:8080/x')
  })

  it('mends a scheme whose slashes a proxy collapsed', () => {
    expect(targetUrl('https:/example.com/page').href).toBe('https://example.com/page')
  })

  it.each([
    'file:///etc/passwd',
    'ftp://example.com/',
    'javascript:alert(1)',
    'data:text/html,x',
    'gopher://x/',
    'ws://x/',
  ])('refuses the scheme of %s', (url) => {
    expect(() => targetUrl(url)).toThrow(/^scheme: Only http and https URLs can be read/)
  })
})
