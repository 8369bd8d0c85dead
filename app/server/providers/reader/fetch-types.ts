/** How one page may be fetched. */
export interface FetchLimits {
  /** Whether the reader may connect to this (resolved or literal) address. */
  allows: (address: string) => boolean
  /** DNS servers to resolve page hosts with (`ip` or `ip:port`); undefined: the system's resolver. */
  dnsServers: string[] | undefined
  timeoutMs: number
  maxBytes: number
  maxRedirects: number
  /** Cancels the fetch (the caller went away). */
  signal?: AbortSignal
}

export interface FetchedPage {
  /** Where the page was found, after redirects. */
  url: string
  /** The media type, lower-case, without parameters. */
  mediaType: string
  charset: string | undefined
  /** The decompressed body as it arrives, never more than `maxBytes` in all. */
  body: AsyncIterable<Uint8Array>
}
