import { promises as dns } from 'node:dns'
import { isIP } from 'node:net'

export interface ResolvedAddress {
  address: string
  family: 4 | 6
}

/** Every address a host name has, the way the reader's connections will reach it. */
export type HostResolver = (host: string) => Promise<ResolvedAddress[]>

/** A name that resolves to nothing, or a resolver that failed: the page cannot be reached. */
export class HostNotFound extends Error {
  constructor(
    readonly host: string,
    options?: { cause?: unknown },
  ) {
    super(`${host} does not resolve`, options)
    this.name = 'HostNotFound'
  }
}

const familyOf = (address: string): 4 | 6 => (isIP(address) === 6 ? 6 : 4)

/**
 * The system's resolver (getaddrinfo: /etc/hosts, then DNS), or, given `servers` (`ip` or `ip:port`), those
 * DNS servers only, asked for A and AAAA records. Either way every address is returned, so the caller can
 * refuse a name if any of them is not allowed (a name with one public and one private record is refused).
 */
export function createResolver(servers?: string[]): HostResolver {
  if (!servers?.length) {
    return async (host) => {
      try {
        const found = await dns.lookup(host, { all: true, verbatim: true })
        if (found.length === 0) throw new HostNotFound(host)
        return found.map(({ address }) => ({ address, family: familyOf(address) }))
      } catch (error) {
        throw error instanceof HostNotFound ? error : new HostNotFound(host, { cause: error })
      }
    }
  }
  const resolver = new dns.Resolver({ timeout: 3000, tries: 2 })
  resolver.setServers(servers)
  return async (host) => {
    const [v4, v6] = await Promise.allSettled([resolver.resolve4(host), resolver.resolve6(host)])
    const addresses = [v4, v6].flatMap((result) => (result.status === 'fulfilled' ? result.value : []))
    if (addresses.length === 0)
      throw new HostNotFound(host, { cause: v4.status === 'rejected' ? v4.reason : undefined })
    return addresses.map((address) => ({ address, family: familyOf(address) }))
  }
}
