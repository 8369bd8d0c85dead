import ipaddr from 'ipaddr.js'

/**
 * Client address ranges (CIDR, IPv4 and IPv6) of the per-key controls: read, normalised and matched the same
 * way in the dashboard's form (to refuse a typo before saving) and on the server (to refuse a request).
 * A bare address is a range of one (/32, /128); an IPv4-mapped IPv6 address counts as its IPv4 address.
 */
export const MAX_ADDRESS_RANGES = 32

/** The range in its canonical text (`10.0.0.0/8`, `2001:db8::/32`), or undefined when it is not one. */
export function normaliseRange(text: string): string | undefined {
  const trimmed = text.trim()
  try {
    if (ipaddr.isValidCIDR(trimmed)) {
      const [address, bits] = ipaddr.parseCIDR(trimmed)
      const network =
        address.kind() === 'ipv4'
          ? ipaddr.IPv4.networkAddressFromCIDR(trimmed)
          : ipaddr.IPv6.networkAddressFromCIDR(trimmed)
      return `${network.toString()}/${bits}`
    }
    if (ipaddr.isValid(trimmed)) {
      const address = ipaddr.process(trimmed)
      return `${address.toString()}/${address.kind() === 'ipv4' ? 32 : 128}`
    }
  } catch {
    return undefined
  }
  return undefined
}

/** The lines of a textarea (commas and spaces also separate), blank ones dropped. */
export function splitRanges(text: string): string[] {
  return text
    .split(/[\s,]+/)
    .map((line) => line.trim())
    .filter(Boolean)
}

/** Whether `address` (as the app derives a client's address) lies in one of the ranges. */
export function addressInRanges(address: string, ranges: readonly string[]): boolean {
  const bare = address.replace(/^\[|\](?::\d+)?$/g, '').replace(/%.*$/, '')
  if (!ipaddr.isValid(bare)) return false
  const parsed = ipaddr.process(bare)
  return ranges.some((range) => {
    try {
      const [network, bits] = ipaddr.parseCIDR(range)
      return network.kind() === parsed.kind() && parsed.match(network, bits)
    } catch {
      return false
    }
  })
}
