import type { ServerEnv } from '~/server/env'
import { readerHeaders } from '~/contracts/reader'
import { jsonResponse } from './errors'

const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])

export function createNonce(): string {
  return btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(18))))
}

/** Inline scripts are allowed by the request's nonce (live pages) or by their hashes (prerendered pages). */
export type ScriptAllowance = { nonce: string } | { hashes: string[] }

/**
 * The page policy. Scripts need the request's nonce (TanStack Start stamps it on its hydration and
 * theme scripts through the router's `ssr.nonce`); styles allow inline because React style attributes
 * cannot carry a nonce. Vite's dev server injects un-nonced inline scripts and a websocket, so dev relaxes both.
 */
export function contentSecurityPolicy(
  allow: ScriptAllowance,
  env: Pick<ServerEnv, 'TURNSTILE_SECRET_KEY'> &
    Partial<Pick<ServerEnv, 'FIREBASE_AUTH_EMULATOR_HOST' | 'FIREBASE_AUTH_DOMAIN' | 'AUTH_GOOGLE' | 'AUTH_GITHUB'>>,
  dev = false,
): string {
  const turnstile = env.TURNSTILE_SECRET_KEY ? ' https://challenges.cloudflare.com' : ''
  // The identity SDK talks to the emulator when one is configured; provider pop-ups load Google's API script and
  // frame the project's auth domain.
  const emulator = env.FIREBASE_AUTH_EMULATOR_HOST ? ` http://${env.FIREBASE_AUTH_EMULATOR_HOST}` : ''
  const providers = env.AUTH_GOOGLE || env.AUTH_GITHUB ? ' https://apis.google.com' : ''
  const authDomain = env.FIREBASE_AUTH_DOMAIN ? ` https://${env.FIREBASE_AUTH_DOMAIN}` : ''
  const inline = 'nonce' in allow ? `'nonce-${allow.nonce}'` : allow.hashes.map((h) => `'${h}'`).join(' ')
  const script = dev ? `'self' 'unsafe-inline' 'unsafe-eval'` : `'self' ${inline}${turnstile}${providers}`
  const devConnect = dev ? ' ws: wss: http://localhost:* http://127.0.0.1:*' : ''
  return [
    `default-src 'self'`,
    `script-src ${script}`,
    `style-src 'self' 'unsafe-inline'`,
    `img-src 'self' data: blob: https:`,
    `font-src 'self' data:`,
    `connect-src 'self' https://identitytoolkit.googleapis.com https://securetoken.googleapis.com${emulator}${turnstile}${devConnect}`,
    `frame-src 'self' https://*.firebaseapp.com${authDomain}${emulator}${turnstile}`,
    `worker-src 'self' blob:`,
    `object-src 'none'`,
    `base-uri 'self'`,
    `form-action 'self'`,
    `frame-ancestors 'none'`,
  ].join('; ')
}

/**
 * The policy for answers that are not pages (API JSON, files, redirects): nothing in them may run,
 * load or be framed. A fixed string, so API requests skip the nonce and the page policy's assembly.
 */
export const API_CONTENT_SECURITY_POLICY =
  "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"

/** Paths answered by API handlers rather than pages: no page policy, no prerendered lookup. */
export function isApiPath(pathname: string): boolean {
  return /^\/(api|internal|v1|_serverFn)\//.test(pathname) || /^\/(healthz(\/live)?|[rs](\/.*)?)$/.test(pathname)
}

/** Reliability test 26: on every response, pages and API alike. */
export function applySecurityHeaders(headers: Headers, csp: string): void {
  headers.set('Content-Security-Policy', csp)
  headers.set('Strict-Transport-Security', 'max-age=63072000; includeSubDomains')
  headers.set('X-Content-Type-Options', 'nosniff')
  headers.set('Referrer-Policy', 'strict-origin-when-cross-origin')
  headers.set('X-Frame-Options', 'DENY')
  headers.set('Cross-Origin-Opener-Policy', 'same-origin-allow-popups')
  headers.set('Permissions-Policy', 'camera=(), microphone=(), geolocation=(), payment=(self)')
}

/** Our own origins: the public one and the one this request reached (they differ behind a proxy or in dev). */
export function ownOrigins(request: Request, env: Pick<ServerEnv, 'PUBLIC_BASE_URL'>): Set<string> {
  return new Set([new URL(env.PUBLIC_BASE_URL).origin, new URL(request.url).origin])
}

/**
 * CSRF defence for state-changing requests. Browsers send Origin (and Sec-Fetch-Site) on every POST/DELETE,
 * so those must be ours. A request with neither is not from a browser page (curl, SDKs with a bearer key)
 * and is allowed, unless it carries cookies, which only a browser-like client has and which we cannot vouch for.
 */
export function csrfRefusal(request: Request, env: Pick<ServerEnv, 'PUBLIC_BASE_URL'>): Response | undefined {
  if (!UNSAFE_METHODS.has(request.method) || isSearchApi(request)) return undefined
  const origin = request.headers.get('origin')
  const site = request.headers.get('sec-fetch-site')
  const refuse = () => jsonResponse({ detail: 'Cross-site request refused' }, { status: 403 })
  if (origin !== null) return origin !== 'null' && ownOrigins(request, env).has(origin) ? undefined : refuse()
  if (site !== null) return site === 'same-origin' || site === 'none' ? undefined : refuse()
  if (request.headers.has('cookie')) return refuse()
  return undefined
}

const CORS_METHODS = 'GET, POST, DELETE, OPTIONS'
const CORS_HEADERS = 'Authorization, Content-Type'
/**
 * The reader's options travel as headers, which a browser must be allowed to send: every one its contract
 * reads (so a new option cannot be forgotten here), written as the documentation writes them.
 */
const READER_HEADERS = [
  'Accept',
  // Search's own beside the reader's, which it passes to every read.
  'X-Site',
  ...Object.keys(readerHeaders.entries).map((name) =>
    name === 'dnt'
      ? 'DNT'
      : name.replace(/(^|-)([a-z])/g, (_, dash: string, letter: string) => dash + letter.toUpperCase()),
  ),
].join(', ')

const isDashboardApi = (request: Request) => new URL(request.url).pathname.startsWith('/api/v1/')

/**
 * The search APIs (/v1, the reader at /r and search at /s) authenticate by bearer key only and never read cookies, so a
 * page elsewhere gains nothing by calling them with a visitor's browser: they are open to every origin (apps
 * call them from browsers with their own keys), and cross-site requests need no CSRF defence there.
 */
const isSearchApi = (request: Request) => /^\/(v1\/|[rs](\/|$))/.test(new URL(request.url).pathname)

const SEARCH_API_CORS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers':
    'X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, x-ratelimit-limit-requests, x-ratelimit-remaining-requests, x-ratelimit-reset-requests, x-ratelimit-limit-tokens, x-ratelimit-remaining-tokens, x-ratelimit-reset-tokens, Retry-After, X-Request-Id, Idempotent-Replayed, X-Cache, X-Engine, X-Options-Not-Applied, X-Usage-Tokens',
}

/** Strict CORS for /api/v1: only PUBLIC_BASE_URL may read answers; preflights from elsewhere are refused. */
export function corsPreflight(request: Request, env: Pick<ServerEnv, 'PUBLIC_BASE_URL'>): Response | undefined {
  if (request.method === 'OPTIONS' && isSearchApi(request) && request.headers.has('access-control-request-method'))
    return new Response(null, {
      status: 204,
      headers: {
        ...SEARCH_API_CORS,
        'Access-Control-Allow-Methods': CORS_METHODS,
        'Access-Control-Allow-Headers': `${CORS_HEADERS}, X-Request-Id, X-Request-Tag, Idempotency-Key, ${READER_HEADERS}`,
        'Access-Control-Max-Age': '600',
      },
    })
  if (request.method !== 'OPTIONS' || !isDashboardApi(request) || !request.headers.has('access-control-request-method'))
    return undefined
  const origin = request.headers.get('origin')
  if (!origin || origin !== new URL(env.PUBLIC_BASE_URL).origin)
    return jsonResponse({ detail: 'Origin not allowed' }, { status: 403, headers: { Vary: 'Origin' } })
  return new Response(null, {
    status: 204,
    headers: {
      'Access-Control-Allow-Origin': origin,
      'Access-Control-Allow-Methods': CORS_METHODS,
      'Access-Control-Allow-Headers': CORS_HEADERS,
      'Access-Control-Max-Age': '600',
      Vary: 'Origin',
    },
  })
}

export function applyCors(request: Request, headers: Headers, env: Pick<ServerEnv, 'PUBLIC_BASE_URL'>): void {
  if (isSearchApi(request)) for (const [name, value] of Object.entries(SEARCH_API_CORS)) headers.set(name, value)
  if (!isDashboardApi(request)) return
  headers.append('Vary', 'Origin')
  const origin = request.headers.get('origin')
  if (origin && origin === new URL(env.PUBLIC_BASE_URL).origin) headers.set('Access-Control-Allow-Origin', origin)
}
