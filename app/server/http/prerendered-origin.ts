/**
 * A build prerenders its pages for one public origin and API base URL (canonical and alternate links, JSON-LD,
 * code samples, the demos' API base). Served under others (another port, a staging or production domain: build
 * once, deploy anywhere), the same pages are rebased: each address swapped for the one this server is
 * configured with. The pages keep everything else the build gave them (the deferred runtime above all), which
 * rendering them live would lose.
 */
export interface Origins {
  baseUrl: string
  apiBaseUrl: string
}

/**
 * `text` with the built origins replaced by the served ones, or undefined when that cannot be done faithfully:
 * a build whose API base was its own origin cannot tell the two apart, so it can only serve a configuration
 * where they are equal too.
 */
export function rebase(text: string, built: Origins, served: Origins): string | undefined {
  if (built.baseUrl === served.baseUrl && built.apiBaseUrl === served.apiBaseUrl) return text
  const builtTogether = built.apiBaseUrl === built.baseUrl
  if (builtTogether && served.apiBaseUrl !== served.baseUrl) return undefined
  // The API base first, through a marker no page contains, in case it starts with the origin (origin + /api).
  const marker = '\u0000api-base\u0000'
  const withMarker = builtTogether ? text : text.split(built.apiBaseUrl).join(marker)
  return withMarker.split(built.baseUrl).join(served.baseUrl).split(marker).join(served.apiBaseUrl)
}
