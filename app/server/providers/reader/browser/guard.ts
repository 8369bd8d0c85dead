import type { BrowserContext, Route } from 'playwright-core'
import { isRefusal } from '../../../domain/refusals'
import type { FetchLimits } from '../fetcher'
import { fetchResource, type FetchedResource } from '../node-fetch'

/** Requests one page may make (documents, scripts, images, fetches) before the rest are refused. */
export const MAX_PAGE_REQUESTS = 400
/** Bytes one page may download in all, its subresources included (each also within the page limit). */
export const MAX_PAGE_BYTES_FACTOR = 4

/** What the guard let through and refused, for the caller's limits and for the tests. */
export interface GuardLog {
  requests: number
  bytes: number
  /** URLs refused, each with why. */
  refused: Array<{ url: string; why: string }>
}

/** Request headers a page's request may carry on to a server; the rest (hop-by-hop, Host) are the reader's to set. */
const forwarded = new Set([
  'accept',
  'accept-language',
  'user-agent',
  'referer',
  'cookie',
  'content-type',
  'origin',
  'range',
  'x-requested-with',
  'dnt',
])

/** Schemes a page may use that never reach the network (the browser answers them from memory). */
const local = new Set(['data:', 'blob:', 'about:'])

/**
 * Routes every request a page in `context` makes through the reader's own fetch: the host resolved and
 * every address checked with `limits.allows`, the connection pinned to that address, redirects followed
 * and checked here (never by the browser, which would not route the next hop). Refused, failed or over the
 * page's budget, the request is aborted as if blocked. WebSockets are closed before they connect, service
 * workers and downloads are off (`./chromium.ts`), and Chromium resolves no name itself, so a request that
 * escaped this route would fail rather than reach anything.
 *
 * `prefetched` answers the first request for its URL (the document the reader already fetched to learn
 * its type and final URL), so the page is not downloaded twice.
 */
export async function guardContext(
  context: BrowserContext,
  limits: FetchLimits,
  prefetched?: FetchedResource,
): Promise<GuardLog> {
  const log: GuardLog = { requests: 0, bytes: 0, refused: [] }
  const budget = limits.maxBytes * MAX_PAGE_BYTES_FACTOR
  let first = prefetched
  const refuse = (route: Route, url: string, why: string) => {
    log.refused.push({ url, why })
    return route.abort('blockedbyclient').catch(() => undefined)
  }
  await context.route('**/*', async (route) => {
    const request = route.request()
    const href = request.url()
    let url: URL
    try {
      url = new URL(href)
    } catch {
      return refuse(route, href, 'invalid URL')
    }
    if (local.has(url.protocol)) return route.continue().catch(() => undefined)
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return refuse(route, href, `scheme ${url.protocol}`)
    if (first && href === first.url && request.isNavigationRequest()) {
      const resource = first
      first = undefined
      log.requests++
      log.bytes += resource.body.byteLength
      return route.fulfill({ status: resource.status, headers: resource.headers, body: resource.body })
    }
    if (++log.requests > MAX_PAGE_REQUESTS) return refuse(route, href, 'too many requests')
    const remaining = budget - log.bytes
    if (remaining <= 0) return refuse(route, href, 'page budget spent')
    try {
      const headers: Record<string, string> = {}
      for (const [name, value] of Object.entries(await request.allHeaders()))
        if (forwarded.has(name.toLowerCase())) headers[name.toLowerCase()] = value
      const resource = await fetchResource(
        url,
        { ...limits, maxBytes: Math.min(limits.maxBytes, remaining) },
        { method: request.method(), headers, body: request.postDataBuffer() ?? undefined },
      )
      log.bytes += resource.body.byteLength
      await route.fulfill({ status: resource.status, headers: resource.headers, body: resource.body })
    } catch (error) {
      // Refusals (address, scheme, size) and failures alike: the page sees a blocked request, nothing more.
      await refuse(route, href, isRefusal(error) ? error.message : 'failed')
    }
  })
  await context.routeWebSocket(/.*/, (socket) => socket.close({ code: 1008, reason: 'WebSockets are not read' }))
  return log
}
