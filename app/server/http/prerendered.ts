import { contentSecurityPolicy } from './security'
import type { ServerEnv } from '~/server/env'

/**
 * Public pages prerendered at build (scripts/postbuild.mjs moves them out of the static folder into
 * `.output/server/prerendered/`, with gzip and brotli copies and the hashes of their inline scripts).
 * Serving them here, not as static files, keeps every guard and header in one place: a request with a
 * query string, or a build made for another public origin or API base URL, falls through to live rendering.
 */
interface Manifest {
  baseUrl: string
  /** The PUBLIC_API_BASE_URL the pages' code samples and demo curls were rendered with. */
  apiBaseUrl: string | null
  /** Pages by path, and the scripts with their hydration data (`script`, named by their content's hash). */
  pages: Record<string, { file: string; hashes: string[]; etag: string; script?: boolean }>
}

/** The nonce the prerenderer renders with; postbuild strips it and the page runs on script hashes. */
export const PRERENDER_NONCE = 'prerender-nonce'

let manifest: Promise<{ dir: string; manifest: Manifest } | undefined> | undefined

async function loadManifest() {
  try {
    const [{ readFile }, { dirname, join }, { fileURLToPath }] = await Promise.all([
      import('node:fs/promises'),
      import('node:path'),
      import('node:url'),
    ])
    // The server bundle's chunks sit one or two folders below .output/server.
    let dir = dirname(fileURLToPath(import.meta.url))
    for (let depth = 0; depth < 4; depth++, dir = dirname(dir)) {
      try {
        const json = await readFile(join(dir, 'prerendered', 'manifest.json'), 'utf8')
        return { dir: join(dir, 'prerendered'), manifest: JSON.parse(json) as Manifest }
      } catch {
        // not here; look one folder up
      }
    }
  } catch {
    // No file system (edge runtime): every page renders live.
  }
  return undefined
}

/**
 * The built files never change while the server runs, so they are kept in memory after the first read:
 * a file read per request (open, stat, read, close on the thread pool) was most of what serving a page
 * cost. Least recently used files leave first once the cache holds more than CACHE_BYTES.
 */
const CACHE_BYTES = 48 * 1024 * 1024
const cache = new Map<string, Uint8Array<ArrayBuffer>>()
let cachedBytes = 0

async function pageBytes(file: string): Promise<Uint8Array<ArrayBuffer>> {
  const hit = cache.get(file)
  if (hit) {
    cache.delete(file)
    cache.set(file, hit)
    return hit
  }
  const { readFile } = await import('node:fs/promises')
  const bytes = new Uint8Array(await readFile(file))
  cache.set(file, bytes)
  cachedBytes += bytes.byteLength
  for (const [oldest, old] of cache) {
    if (cachedBytes <= CACHE_BYTES) break
    cache.delete(oldest)
    cachedBytes -= old.byteLength
  }
  return bytes
}

function pickEncoding(request: Request): { suffix: string; encoding?: string } {
  const accepted = request.headers.get('accept-encoding') ?? ''
  if (/\bbr\b/.test(accepted)) return { suffix: '.br', encoding: 'br' }
  if (/\bgzip\b/.test(accepted)) return { suffix: '.gz', encoding: 'gzip' }
  return { suffix: '' }
}

/** Pages show the public origin and the API base URL: another server's would be wrong here. */
function builtFor(manifest: Manifest, env: ServerEnv): boolean {
  return manifest.baseUrl === new URL(env.PUBLIC_BASE_URL).origin && manifest.apiBaseUrl === env.PUBLIC_API_BASE_URL
}

/**
 * The prerendered page for this request, with its policy (its own inline scripts by hash instead of a
 * nonce), or one of their hydration data scripts, or undefined when the request must render live.
 */
export async function prerenderedPage(
  request: Request,
  env: ServerEnv,
): Promise<{ response: Response; policy: string } | undefined> {
  if (request.method !== 'GET' && request.method !== 'HEAD') return undefined
  const url = new URL(request.url)
  if (url.search) return undefined
  manifest ??= loadManifest()
  const loaded = await manifest
  if (!loaded || !builtFor(loaded.manifest, env)) return undefined
  const path = url.pathname.length > 1 ? url.pathname.replace(/\/$/, '') : '/'
  const page = loaded.manifest.pages[path]
  if (!page) return undefined
  const { suffix, encoding } = pickEncoding(request)
  const headers = new Headers({
    'content-type': page.script ? 'text/javascript; charset=utf-8' : 'text/html; charset=utf-8',
    'cache-control': page.script ? 'public, max-age=31536000, immutable' : 'public, max-age=0, must-revalidate',
    etag: page.etag,
    vary: 'Accept-Encoding',
    'x-prerendered': '1',
  })
  if (encoding) headers.set('content-encoding', encoding)
  const policy = contentSecurityPolicy({ hashes: page.hashes }, env)
  if (request.headers.get('if-none-match') === page.etag)
    return { response: new Response(null, { status: 304, headers }), policy }
  const body = request.method === 'HEAD' ? null : await pageBytes(`${loaded.dir}/${page.file}${suffix}`)
  return { response: new Response(body, { status: 200, headers }), policy }
}
