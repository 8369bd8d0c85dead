import ipaddr from 'ipaddr.js'

/**
 * Which addresses the reader may connect to. Only public unicast: loopback, private, link-local (cloud
 * metadata at 169.254.169.254 included), carrier-grade NAT (Alibaba's metadata at 100.100.100.200),
 * multicast, broadcast, unspecified, reserved and documentation ranges are refused, and so is any IPv6
 * address outside global unicast (2000::/3) or one that embeds an IPv4 address (mapped, NAT64, 6to4,
 * Teredo), since what it reaches is decided by the embedded address. Addresses arrive canonical: the URL
 * parser already read decimal, hex, octal and short IPv4 spellings.
 */
export type AddressKind = 'public' | 'not-an-address' | string

const globalUnicast = ipaddr.parseCIDR('2000::/3')

/** The range an address is in (`public`, or ipaddr.js's name for the range that makes it non-public). */
export function addressKind(address: string): AddressKind {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '')
  if (!ipaddr.isValid(bare)) return 'not-an-address'
  // An IPv4-mapped IPv6 address reaches the IPv4 address inside it.
  const parsed = ipaddr.process(bare)
  const range = parsed.range()
  if (range !== 'unicast') return range
  if (parsed.kind() === 'ipv6' && !(parsed as ipaddr.IPv6).match(globalUnicast)) return 'reserved'
  return 'public'
}

export const isPublicAddress = (address: string) => addressKind(address) === 'public'

/** The host of a URL without IPv6 brackets, and whether it is an address rather than a name. */
export function hostOf(url: URL): { host: string; isAddress: boolean } {
  const host = url.hostname.replace(/^\[|\]$/g, '')
  return { host, isAddress: ipaddr.isValid(host) }
}
