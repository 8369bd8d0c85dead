/** What a request sends besides its URL: the caller's headers (user agent, locale, cookies), a method and body. */
export interface Outgoing {
  method?: string
  headers?: Record<string, string>
  body?: Uint8Array
  /**
   * A page whose server answers 4xx or 5xx is read all the same, its status in `FetchedPage.status` (the
   * original answers an error page's content with a warning); without it such a page is refused with 422.
   */
  errorPages?: boolean
}

import type { ProxySetting } from './proxy-url'

/** How one page may be fetched. */
export interface FetchLimits {
  /** Whether the reader may connect to this (resolved or literal) address. */
  allows: (address: string) => boolean
  /**
   * Origins (`http://localhost:3000`) read whatever address they resolve to: this site's own, so its demo reads
   * its pages on a machine where it is served on loopback. Only these exact origins (scheme, host, port).
   */
  ownOrigins?: string[]
  /** DNS servers to resolve page hosts with (`ip` or `ip:port`); undefined: the system's resolver. */
  dnsServers: string[] | undefined
  timeoutMs: number
  maxBytes: number
  maxRedirects: number
  /**
   * The caller's proxy (`X-Proxy-Url`): every request of the read, the browser's included, goes through it. Its
   * address obeys `allows` like a page's, and the page's host is still checked.
   */
  proxy?: ProxySetting
  /** Cancels the fetch (the caller went away). */
  signal?: AbortSignal
}

export interface FetchedPage {
  /** Where the page was found, after redirects. */
  url: string
  /** The media type, lower-case, without parameters. */
  mediaType: string
  charset: string | undefined
  /** The status of an error page read with `Outgoing.errorPages` (`404`, with its reason phrase); undefined for 2xx. */
  errorStatus?: { code: number; reason: string }
  /** The decompressed body as it arrives, never more than `maxBytes` in all. */
  body: AsyncIterable<Uint8Array>
}
