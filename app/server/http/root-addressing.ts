import type { ServerEnv } from '../env'
import { socketAddress } from './socket-address'

/**
 * The original reader's addressing: its clients put the page's URL right after the host
 * (`GET https://r.example.com/https://example.com/a`) and `POST /` a body naming `url`. Before the router sees
 * a request, one that is addressed so is rewritten to the route that answers it (`/r/…`); every other request,
 * and every page of the site, is left as it is.
 *
 * Each service that can own the root of a host is one entry of `rootServices`: where its routes are, the
 * host setting whose whole root it is, and which paths it takes there and on every host: the reader (`/r`,
 * READER_HOST) and search (`/s`, SEARCH_HOST).
 */
export interface RootService {
  /** Where its routes are, without the trailing slash: `/r`. */
  prefix: string
  /** The host (`host` or `host:port`) whose whole root is this service, from the environment; unset: none. */
  host: (env: ServerEnv) => string | undefined
  /** On any host (the site's own included): the paths this service takes at the root. */
  takesAnywhere: (path: string) => boolean
  /** On its own host: the paths it takes (the rest, `/` among them, stay the site's). */
  takesOnItsHost: (path: string) => boolean
  /** `POST /` with a JSON, form or multipart body: the service's on every host, or only on its own. */
  postRoot: 'any-host' | 'own-host' | 'none'
  /** On its own host: whether `GET /` with this query is the service's (search's `/?q=…`); else the site's. */
  getRootOnItsHost?: (query: URLSearchParams) => boolean
}

/** A path that is an absolute http(s) URL, written out (`/https://…`, `/https:/…` once a proxy merged slashes) or encoded. */
const absoluteUrlPath = /^\/https?(:|%3A)/i

/** Files and routes of the site at its root, which stay the site's on a service's host too. */
const siteFile = /\.(txt|xml|ico|png|jpe?g|svg|webp|gif|webmanifest|js|mjs|css|map|woff2?|json|html?)$/i
const sitePrefixes = ['r', 's', 'v1', 'api', 'internal', 'healthz', 'healthz.live', 'metrics', '_serverFn', 'assets']

/** The first segment of a path, decoded where it can be. */
function firstSegment(path: string): string {
  const segment = path.split('/')[1] ?? ''
  try {
    return decodeURIComponent(segment)
  } catch {
    return segment
  }
}

/** A path naming a page without its scheme, as the original takes it on its host: `/example.com/a`, `/localhost:3000/`. */
function looksLikeAddress(path: string): boolean {
  if (absoluteUrlPath.test(path)) return true
  const segment = firstSegment(path)
  if (!segment || sitePrefixes.includes(segment)) return false
  if (!segment.includes('.') && !segment.includes(':')) return false
  return !(path.split('/').length === 2 && siteFile.test(segment))
}

export const rootServices: RootService[] = [
  {
    prefix: '/r',
    host: (env) => env.READER_HOST,
    takesAnywhere: (path) => absoluteUrlPath.test(path),
    takesOnItsHost: looksLikeAddress,
    postRoot: 'any-host',
  },
  {
    // The search host, as s.jina.ai: every path is a query (`/reranker+v3`, `/search?q=…`) but the site's
    // own files, `/?q=…` searches, and `POST /` is a search on this host only (elsewhere it is the reader's).
    prefix: '/s',
    host: (env) => env.SEARCH_HOST,
    takesAnywhere: () => false,
    takesOnItsHost: (path) => {
      const segment = firstSegment(path)
      if (sitePrefixes.includes(segment)) return false
      return !(path.split('/').length === 2 && siteFile.test(segment))
    },
    postRoot: 'own-host',
    getRootOnItsHost: (query) => Boolean(query.get('q')?.trim()),
  },
]

const bodyTypes = ['application/json', 'application/x-www-form-urlencoded', 'multipart/form-data']

function sameHost(url: URL, host: string): boolean {
  const wanted = host.toLowerCase()
  return url.host.toLowerCase() === wanted || (!wanted.includes(':') && url.hostname.toLowerCase() === wanted)
}

/** The path a root-addressed request is answered at (`/r/https://…`), or undefined when it is the site's. */
export function rootAddressedPath(
  request: Pick<Request, 'url' | 'method' | 'headers'>,
  env: Pick<ServerEnv, 'READER_HOST' | 'SEARCH_HOST'>,
  services: RootService[] = rootServices,
): string | undefined {
  const url = new URL(request.url)
  const path = url.pathname
  const own = services.find((service) => {
    const host = service.host(env as ServerEnv)
    return host !== undefined && sameHost(url, host)
  })
  const postsBody = () =>
    request.method === 'POST' &&
    bodyTypes.includes((request.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase())
  if (path === '/') {
    if (request.method === 'GET' && own?.getRootOnItsHost?.(url.searchParams)) return `${own.prefix}/${url.search}`
    if (!postsBody()) return undefined
    const service = own && own.postRoot !== 'none' ? own : services.find((s) => s.postRoot === 'any-host')
    return service?.prefix
  }
  if (own?.takesOnItsHost(path)) return `${own.prefix}${path}${url.search}`
  const anywhere = services.find((service) => service.takesAnywhere(path))
  return anywhere && `${anywhere.prefix}${path}${url.search}`
}

/**
 * The request as the router should see it: rewritten to its service's route when it is root-addressed (the
 * same method, headers, body, signal and peer address), else the request itself.
 */
export function withRootAddressing(request: Request, env: Pick<ServerEnv, 'READER_HOST' | 'SEARCH_HOST'>): Request {
  const path = rootAddressedPath(request, env)
  if (path === undefined) return request
  const url = new URL(request.url)
  const hasBody = request.body !== null && request.method !== 'GET' && request.method !== 'HEAD'
  const rewritten = new Request(new URL(path, url.origin), {
    method: request.method,
    headers: request.headers,
    body: hasBody ? request.body : undefined,
    signal: request.signal,
    ...(hasBody && { duplex: 'half' }),
  } as RequestInit)
  const peer = socketAddress(request)
  if (peer !== undefined) Object.defineProperty(rewritten, 'ip', { value: peer })
  return rewritten
}
