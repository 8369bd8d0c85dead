import { PageNotRead } from '../../domain/refusals'

/** A proxy a caller named with `X-Proxy-Url`, parsed: the reader reaches pages through it (`./proxy-tunnel.ts`). */
export interface ProxySetting {
  protocol: 'http:' | 'https:' | 'socks5:'
  /** As the URL spells it: a name, or an address (IPv6 without brackets). */
  host: string
  port: number
  username?: string
  password?: string
  /** The proxy without its credentials, for messages and logs. */
  origin: string
}

const defaultPorts = { 'http:': 80, 'https:': 443, 'socks5:': 1080 } as const

/**
 * `http://`, `https://` or `socks5://` (`socks5h://` too: the reader resolves and checks the page's host
 * itself either way), with optional `user:password@`. Anything else is refused with 422 naming the header.
 */
export function parseProxyUrl(text: string): ProxySetting {
  let url: URL
  try {
    url = new URL(text)
  } catch {
    throw new PageNotRead('option', 'X-Proxy-Url must be a URL such as http://proxy.example:8080')
  }
  const scheme = url.protocol === 'socks5h:' ? 'socks5:' : url.protocol
  if (scheme !== 'http:' && scheme !== 'https:' && scheme !== 'socks5:')
    throw new PageNotRead('option', `X-Proxy-Url must be an http, https or socks5 proxy, not ${url.protocol}`)
  if (!url.hostname) throw new PageNotRead('option', 'X-Proxy-Url must name the proxy host')
  if ((url.pathname && url.pathname !== '/') || url.search || url.hash)
    throw new PageNotRead('option', 'X-Proxy-Url names a proxy only: scheme, credentials, host and port')
  const port = url.port ? Number(url.port) : defaultPorts[scheme]
  const host = url.hostname.replace(/^\[|\]$/g, '')
  return {
    protocol: scheme,
    host,
    port,
    username: url.username ? decodeURIComponent(url.username) : undefined,
    password: url.password ? decodeURIComponent(url.password) : undefined,
    origin: `${scheme}//${url.host}`,
  }
}
