import { serverEnv } from '~/server/env'
import { socketAddress } from './socket-address'

/**
 * The caller's address. Behind a proxy (TRUST_PROXY=true) it is the last X-Forwarded-For hop, the one our
 * proxy appended; earlier hops are whatever the client claimed. Otherwise the peer's address (the socket's
 * on Node, Cloudflare's CF-Connecting-IP in the edge build).
 */
export function clientAddress(request: Request, env = serverEnv()): string {
  if (env.TRUST_PROXY) {
    const hops = request.headers
      .get('x-forwarded-for')
      ?.split(',')
      .map((h) => h.trim())
      .filter(Boolean)
    if (hops?.length) return hops[hops.length - 1]
  }
  return socketAddress(request) ?? 'unknown'
}

/** The caller's network, for per-address rate limits: see `addressNetwork`. */
export function clientNetwork(request: Request, env = serverEnv()): string {
  return addressNetwork(clientAddress(request, env))
}

/**
 * What a rate limit counts an address as. One IPv6 subscriber gets a whole /64 (often far more), so every
 * address of a /64 is one client; an IPv4-mapped IPv6 address is its IPv4 address. Ports, brackets and zone
 * ids are dropped, and text that is no address is kept as it is (bounded), so it still has its own counter.
 */
export function addressNetwork(raw: string): string {
  let address = raw.trim().toLowerCase()
  const bracketed = /^\[([^\]]*)\](?::\d+)?$/.exec(address)
  if (bracketed) address = bracketed[1]
  else if (/^[\d.]+:\d+$/.test(address)) address = address.slice(0, address.lastIndexOf(':'))
  address = address.replace(/%.*$/, '')
  if (isIpv4(address)) return address
  const groups = ipv6Groups(address)
  if (!groups) return address.slice(0, 64)
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff)
    return [groups[6] >> 8, groups[6] & 0xff, groups[7] >> 8, groups[7] & 0xff].join('.')
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')}::/64`
}

function isIpv4(text: string): boolean {
  const parts = text.split('.')
  return parts.length === 4 && parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255)
}

/** The eight 16-bit groups of an IPv6 address (`::` and a dotted IPv4 tail allowed), or undefined. */
function ipv6Groups(text: string): number[] | undefined {
  if (!/^[\da-f:.]+$/.test(text) || text.split('::').length > 2) return undefined
  const expand = (part: string): number[] | undefined => {
    if (part === '') return []
    const out: number[] = []
    const pieces = part.split(':')
    for (const [index, piece] of pieces.entries()) {
      if (index === pieces.length - 1 && isIpv4(piece)) {
        const bytes = piece.split('.').map(Number)
        out.push((bytes[0] << 8) | bytes[1], (bytes[2] << 8) | bytes[3])
      } else if (/^[\da-f]{1,4}$/.test(piece)) out.push(Number.parseInt(piece, 16))
      else return undefined
    }
    return out
  }
  const [head, tail] = text.split('::')
  const first = expand(head)
  const last = tail === undefined ? [] : expand(tail)
  if (!first || !last) return undefined
  if (tail === undefined) return first.length === 8 ? first : undefined
  const missing = 8 - first.length - last.length
  return missing >= 1 ? [...first, ...Array<number>(missing).fill(0), ...last] : undefined
}
