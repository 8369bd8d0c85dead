import type { ReaderHeaders, ReaderPage } from '~/contracts/reader'
import { readerLimits } from '~/contracts/reader'
import type { Db } from '../../db/types'
import { cachedPage, cachePage } from '../../domain/reader-cache'
import type { ServerEnv } from '../../env'
import { errorFields, log } from '../../log'
import { browserPool } from '../../providers/reader/browser/chromium'
import { linkPairs } from '../../providers/reader/convert/summaries'
import { obeyRobots } from '../../providers/reader/robots'
import { fetchLimitsOf, readPage, type PageResult, type ReadRequest } from '../../providers/reader/read-page'
import { readRequestOf } from './read-options'

/**
 * Pages whose answer is longer than this (in characters) are answered but not cached: writing megabytes of
 * JSON (and reading them back) holds the event loop, for 100 ms and more per 3 MB in the embedded database.
 */
export const MAX_CACHED_PAGE = 2 * 1024 * 1024

/** About the length of the page as JSON, without building it: the content and the summaries dominate. */
function lengthOf(page: ReaderPage): number {
  let length = page.content.length + page.title.length + page.description.length
  for (const [text, url] of [...linkPairs(page.links), ...Object.entries(page.images)])
    length += text.length + url.length
  return length
}

/**
 * Names a conversion: the URL, every option that changes what is answered (engine, rendering, the headers
 * sent to the page), and whether private addresses were allowed.
 */
async function cacheKeyOf(url: URL, request: ReadRequest, allowPrivate: boolean): Promise<string> {
  const text = JSON.stringify([
    url.href,
    request.convert,
    request.engine,
    request.render,
    request.outgoing,
    request.baseInitial ?? false,
    allowPrivate,
  ])
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text))
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('')
}

/**
 * Reads that are never cached: screenshots (their links expire, and an image is taken anew), pages read with
 * the caller's cookies (what they show belongs to that caller), pages a caller's script ran in, and pages read
 * through a caller's proxy (chosen to see the page as another place sees it).
 */
function cacheable(request: ReadRequest): boolean {
  const { render, outgoing } = request
  return !render.screenshot && !render.pageshot && !render.pageScript && !outgoing.headers?.cookie && !request.proxy
}

export interface PageRead extends Omit<PageResult, 'engine'> {
  /** Answered from the cache, without fetching. */
  cached: boolean
}

/**
 * A page from the cache when it holds a conversion younger than READER_CACHE_TTL_SECONDS (unless the caller
 * sent `X-No-Cache: true`), else fetched, converted and cached (unless longer than MAX_CACHED_PAGE). A cache
 * that cannot be written is logged, not the caller's problem: the page is answered all the same.
 */
export async function cachedOrRead(
  db: Db,
  env: ServerEnv,
  url: URL,
  headers: ReaderHeaders,
  options: {
    signal?: AbortSignal
    onPartial?: (page: ReaderPage) => Promise<void>
    request?: ReadRequest
    /** Whose browser time a render is (see `ReadRequest.caller`). */
    caller?: string
  } = {},
): Promise<PageRead> {
  const request = { ...(options.request ?? readRequestOf(headers, env)) }
  request.caller ??= options.caller
  const ttl = env.READER_CACHE_TTL_SECONDS
  const timeout = headers['x-timeout'] ?? readerLimits.defaultTimeoutSeconds
  const limits = { ...fetchLimitsOf(env, timeout, options.signal), proxy: request.proxy }
  // Obeyed for cached pages too: the caller asked not to be answered what robots.txt forbids.
  if (headers['x-robots-txt']) await obeyRobots(url, headers['x-robots-txt'], limits)
  const key =
    ttl > 0 && cacheable(request) ? await cacheKeyOf(url, request, env.READER_ALLOW_PRIVATE_NETWORKS) : undefined
  const tolerance = headers['x-cache-tolerance']
  if (key && !headers['x-no-cache'] && tolerance !== 0) {
    // A page cached more than X-Cache-Tolerance seconds ago has less than ttl − tolerance left to live.
    const hit = await cachedPage<ReaderPage>(db, key, tolerance === undefined ? 0 : Math.max(0, ttl - tolerance))
    // A page cached before conversions carried their token count is converted again rather than counted here.
    if (hit?.usage) return { page: hit, cached: true }
  }
  const result = await readPage(url, request, limits, () => browserPool(env), options.onPartial)
  const page: ReaderPage = { ...result.page, engine: result.engine }
  // DNT: 1 asks that nothing of this read be kept.
  // An error page (answered with its warning) is not kept: the next read asks the page's server again.
  if (key && !headers.dnt && !page.warning && lengthOf(page) <= MAX_CACHED_PAGE)
    await cachePage(db, { key, url: url.href, page, ttlSeconds: ttl }).catch((error: unknown) =>
      log('warn', 'reader cache not written', { error: errorFields(error) }),
    )
  return { page, cached: false, screenshot: result.screenshot, pageshot: result.pageshot }
}
