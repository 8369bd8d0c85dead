import { request as httpRequest, type IncomingMessage, type RequestOptions } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { isIP, type LookupFunction } from 'node:net'
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib'
import { brand } from '#config'
import { isRefusal, PageNotRead } from '../../domain/refusals'
import { hostOf } from './address-policy'
import type { FetchedPage, FetchLimits, Outgoing } from './fetch-types'
import { checkScheme, describeSize, readableMediaType } from './page-rules'
import { proxiedRequest, type CheckedProxy } from './proxy-tunnel'
import { createResolver, HostNotFound, type HostResolver, type ResolvedAddress } from './resolve'

const redirectStatuses = new Set([301, 302, 303, 307, 308])

let resolver: { servers: string; resolve: HostResolver } | undefined

/** One resolver per setting of READER_DNS_SERVERS (a Resolver keeps its servers and sockets). */
function resolverFor(servers: string[] | undefined): HostResolver {
  const key = (servers ?? []).join(',')
  if (resolver?.servers !== key) resolver = { servers: key, resolve: createResolver(servers) }
  return resolver.resolve
}

/** Answers every lookup with the address already checked, so the connection cannot go anywhere else. */
function pinnedLookup({ address, family }: ResolvedAddress): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all) (callback as (e: null, a: ResolvedAddress[]) => void)(null, [{ address, family }])
    else callback(null, address, family)
  }
}

/** The address to connect to: the literal one, or every address of the name, each of which must be allowed. */
export async function checkedAddress(url: URL, limits: FetchLimits): Promise<ResolvedAddress> {
  const { host, isAddress } = hostOf(url)
  let addresses: ResolvedAddress[]
  try {
    addresses = isAddress
      ? [{ address: host, family: host.includes(':') ? 6 : 4 }]
      : await resolverFor(limits.dnsServers)(host)
  } catch (error) {
    if (error instanceof HostNotFound)
      throw new PageNotRead('unreachable', `${url.hostname} does not resolve`, { cause: error })
    throw error
  }
  const own = limits.ownOrigins?.includes(url.origin) ?? false
  if (!own && addresses.some(({ address }) => !limits.allows(address)))
    throw new PageNotRead('address', `Refused to read ${url.host}: it is not a public address`)
  return addresses[0]
}

/**
 * The caller's proxy, resolved and checked like a page's host (every address allowed; this site's own origins
 * are no exception here), its connections pinned to the address checked.
 */
async function checkedProxy(limits: FetchLimits): Promise<CheckedProxy | undefined> {
  const proxy = limits.proxy
  if (!proxy) return undefined
  let addresses: ResolvedAddress[]
  try {
    addresses = isIP(proxy.host)
      ? [{ address: proxy.host, family: proxy.host.includes(':') ? 6 : 4 }]
      : await resolverFor(limits.dnsServers)(proxy.host)
  } catch (error) {
    if (error instanceof HostNotFound)
      throw new PageNotRead('unreachable', `The proxy ${proxy.origin} does not resolve`, { cause: error })
    throw error
  }
  if (addresses.some(({ address }) => !limits.allows(address)))
    throw new PageNotRead('address', `Refused to use the proxy ${proxy.origin}: it is not a public address`)
  return { proxy, address: addresses[0], lookup: pinnedLookup(addresses[0]) }
}

const defaultHeaders = () => ({
  'user-agent': `${brand.shortName}Reader/1.0 (+https://${brand.domain})`,
  accept: 'text/html,application/xhtml+xml,text/plain;q=0.9,text/markdown;q=0.9,*/*;q=0.1',
  'accept-language': 'en;q=1, *;q=0.5',
})

async function send(
  url: URL,
  address: ResolvedAddress,
  signal: AbortSignal,
  outgoing: Outgoing = {},
  proxy?: { checked: CheckedProxy; timeoutMs: number },
): Promise<IncomingMessage> {
  const { host } = hostOf(url)
  const base: RequestOptions = {
    host,
    port: url.port || undefined,
    path: `${url.pathname}${url.search}`,
    method: outgoing.method ?? 'GET',
    // A fresh connection per request: a pooled one could have been opened to an address checked for another name.
    agent: false,
    lookup: pinnedLookup(address),
    signal,
    headers: { ...defaultHeaders(), ...outgoing.headers, 'accept-encoding': 'gzip, deflate, br' },
  }
  const { send: request_, options } = proxy
    ? await proxiedRequest(proxy.checked, url, address, base, signal, proxy.timeoutMs)
    : { send: url.protocol === 'https:' ? httpsRequest : httpRequest, options: base }
  return new Promise((resolve, reject) => {
    const request = request_(options, resolve)
    request.once('error', reject)
    request.end(outgoing.body)
  })
}

/** The body decompressed as the server encoded it; an encoding we cannot read is the caller's 422. */
function decoded(response: IncomingMessage): AsyncIterable<Uint8Array> {
  const encoding = (response.headers['content-encoding'] ?? 'identity').trim().toLowerCase()
  if (encoding === 'identity' || encoding === '') return response
  const decompressor =
    encoding === 'gzip' || encoding === 'x-gzip'
      ? createGunzip()
      : encoding === 'deflate'
        ? createInflate()
        : encoding === 'br'
          ? createBrotliDecompress()
          : undefined
  if (!decompressor) {
    response.destroy()
    throw new PageNotRead('content-type', `The page is encoded as ${encoding}, which the reader cannot decode`)
  }
  response.once('error', (error) => decompressor.destroy(error))
  return response.pipe(decompressor)
}

/** Stops at `maxBytes` of decompressed body, so neither a long page nor a compression bomb fills memory. */
async function* capped(body: AsyncIterable<Uint8Array>, maxBytes: number, done: () => void) {
  let seen = 0
  try {
    for await (const chunk of body) {
      seen += chunk.byteLength
      if (seen > maxBytes)
        throw new PageNotRead('too-large', `The page is larger than the reader's limit of ${describeSize(maxBytes)}`)
      yield chunk
    }
  } finally {
    done()
  }
}

function connectionFailure(url: URL, error: unknown): PageNotRead {
  const code = (error as { code?: unknown })?.code
  const why = typeof code === 'string' ? ` (${code})` : ''
  return new PageNotRead('unreachable', `Could not connect to ${url.host}${why}`, { cause: error })
}

/** A response after its redirects, every hop's address checked before connecting. */
async function fetchResponse(
  start: URL,
  limits: FetchLimits,
  outgoing: Outgoing,
  timeout: AbortSignal,
): Promise<{ url: URL; response: IncomingMessage }> {
  const signal = limits.signal ? AbortSignal.any([timeout, limits.signal]) : timeout
  const checked = await checkedProxy(limits)
  const proxy = checked && { checked, timeoutMs: limits.timeoutMs }
  let url = start
  for (let redirects = 0; ; redirects++) {
    checkScheme(url)
    const address = await checkedAddress(url, limits)
    let response: IncomingMessage
    try {
      response = await send(url, address, signal, outgoing, proxy)
    } catch (error) {
      if (timeout.aborted) throw timedOut(limits)
      if (signal.aborted || isRefusal(error)) throw error
      throw connectionFailure(url, error)
    }
    const status = response.statusCode ?? 0
    if (status === 407 && checked) {
      response.destroy()
      throw new PageNotRead(
        'unreachable',
        `The proxy ${checked.proxy.origin} refused the request (HTTP 407: credentials)`,
      )
    }
    const location = response.headers.location
    if (redirectStatuses.has(status) && location) {
      response.destroy()
      if (redirects >= limits.maxRedirects)
        throw new PageNotRead('redirects', `The page redirected more than ${limits.maxRedirects} times`)
      try {
        url = new URL(location, url)
      } catch {
        throw new PageNotRead('url', `The page redirected to an invalid URL`)
      }
      // A 303 (and a 301/302 after a POST, as browsers do) becomes a GET without a body.
      if (status === 303 || ((status === 301 || status === 302) && outgoing.method && outgoing.method !== 'GET'))
        outgoing = { ...outgoing, method: 'GET', body: undefined }
      continue
    }
    return { url, response }
  }
}

const timedOut = (limits: FetchLimits) =>
  new PageNotRead('timeout', `The page did not arrive within ${limits.timeoutMs / 1000} s`)

/** See `PageFetcher`: follows up to `maxRedirects` redirects, checking each hop's address before connecting. */
export async function fetchPage(start: URL, limits: FetchLimits, outgoing: Outgoing = {}): Promise<FetchedPage> {
  const timeout = AbortSignal.timeout(limits.timeoutMs)
  const { url, response } = await fetchResponse(start, limits, outgoing, timeout)
  const status = response.statusCode ?? 0
  const errorPage = outgoing.errorPages && status >= 400 && status <= 599
  if ((status < 200 || status > 299) && !errorPage) {
    response.destroy()
    throw new PageNotRead('status', `The page answered HTTP ${status}`)
  }
  const declared = Number(response.headers['content-length'] ?? 0)
  if (declared > limits.maxBytes) {
    response.destroy()
    throw new PageNotRead('too-large', `The page is larger than the reader's limit of ${describeSize(limits.maxBytes)}`)
  }
  let type: { mediaType: string; charset: string | undefined }
  try {
    type = readableMediaType(response.headers['content-type'])
  } catch (error) {
    response.destroy()
    // An error page the reader cannot convert is refused for its status, which says more than its type.
    throw errorPage ? new PageNotRead('status', `The page answered HTTP ${status}`) : error
  }
  const body = capped(decoded(response), limits.maxBytes, () => response.destroy())
  return {
    url: url.href,
    ...type,
    ...(errorPage && { errorStatus: { code: status, reason: response.statusMessage || 'Error' } }),
    body: withTimeout(body, timeout, () => timedOut(limits)),
  }
}

/** A resource as the browser engine asked for it: any status and type, its body whole and decompressed. */
export interface FetchedResource {
  url: string
  status: number
  headers: Record<string, string>
  body: Buffer
}

const hopHeaders = new Set(['content-encoding', 'content-length', 'transfer-encoding', 'connection', 'keep-alive'])

/**
 * One request a page in the browser made, fetched with the same address rules, pinning and redirect checks
 * as a page (`limits.maxBytes` caps its decompressed body). Redirects are followed here, never by the
 * browser, so every hop is checked.
 */
export async function fetchResource(start: URL, limits: FetchLimits, outgoing: Outgoing): Promise<FetchedResource> {
  const timeout = AbortSignal.timeout(limits.timeoutMs)
  const { url, response } = await fetchResponse(start, limits, outgoing, timeout)
  const chunks: Uint8Array[] = []
  try {
    for await (const chunk of capped(decoded(response), limits.maxBytes, () => response.destroy())) chunks.push(chunk)
  } catch (error) {
    throw timeout.aborted ? timedOut(limits) : error
  }
  const headers: Record<string, string> = {}
  for (const [name, value] of Object.entries(response.headers)) {
    if (value === undefined || hopHeaders.has(name)) continue
    // Playwright takes several Set-Cookie values joined by newlines.
    headers[name] = Array.isArray(value) ? value.join('\n') : value
  }
  return { url: url.href, status: response.statusCode ?? 0, headers, body: Buffer.concat(chunks) }
}

/** A body that stopped because the time ran out reads as the timeout it was. */
async function* withTimeout(body: AsyncIterable<Uint8Array>, timeout: AbortSignal, timedOut: () => Error) {
  try {
    yield* body
  } catch (error) {
    throw timeout.aborted ? timedOut() : error
  }
}
