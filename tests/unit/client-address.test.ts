import { describe, expect, it } from 'vitest'
import { addressNetwork } from '~/server/http/client-address'

describe('the network a rate limit counts an address as', () => {
  it('is the /64 of an IPv6 address, however it is written', () => {
    const network = '2001:db8:1:2::/64'
    for (const address of [
      '2001:db8:1:2::1',
      '2001:0DB8:0001:0002:ffff:ffff:ffff:ffff',
      '2001:db8:1:2:0:0:0:9',
      '[2001:db8:1:2::7]:443',
      '2001:db8:1:2::1%eth0',
      '2001:db8:1:2::192.0.2.1',
    ])
      expect(addressNetwork(address), address).toBe(network)
    expect(addressNetwork('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64')
    expect(addressNetwork('::1')).toBe('0:0:0:0::/64')
    expect(addressNetwork('fe80::1')).toBe('fe80:0:0:0::/64')
  })

  it('is the IPv4 address of an IPv4-mapped IPv6 address, dotted or in hex', () => {
    expect(addressNetwork('::ffff:192.0.2.90')).toBe('192.0.2.90')
    expect(addressNetwork('::FFFF:c000:025a')).toBe('192.0.2.90')
    expect(addressNetwork('[::ffff:192.0.2.90]:8080')).toBe('192.0.2.90')
  })

  it('is the IPv4 address itself, without a port', () => {
    expect(addressNetwork('192.0.2.90')).toBe('192.0.2.90')
    expect(addressNetwork(' 192.0.2.90:51234 ')).toBe('192.0.2.90')
  })

  it('keeps text that is no address as its own bounded bucket', () => {
    expect(addressNetwork('unknown')).toBe('unknown')
    expect(addressNetwork('1:2:3')).toBe('1:2:3')
    expect(addressNetwork('1::2::3')).toBe('1::2::3')
    expect(addressNetwork('x'.repeat(500))).toHaveLength(64)
  })
})
