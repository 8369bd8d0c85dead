import { inlineScriptHashes } from './inline-script-hashes'
import { rebase, type Origins } from './prerendered-origin'
import { contentSecurityPolicy } from './security'
import type { ServerEnv } from '~/server/env'

/**
 * Public pages prerendered at build (build/prerendered-pages.ts moves them out of the static folder into
 * `.output/server/prerendered/`, with gzip and brotli copies and the hashes of their inline scripts).
 * Serving them here, not as static files, keeps every guard and header in one place: a request with a
 * query string falls through to live rendering; a server configured with another public origin or API base
 * URL than the build's serves them rebased (./prerendered-origin.ts).
 */
interface Manifest {
  baseUrl: string
  /** The PUBLIC_API_BASE_URL the pages' code samples and demo curls were rendered with. */
  apiBaseUrl: string | null
  /** Pages by path, and the scripts with their hydration data (`script`, named by their content's hash). */
  pages: Record<string, { file: string; hashes: string[]; etag: string; script?: boolean }>
}

/** The nonce the prerenderer renders with; the build (build/prerendered-pages.ts) strips it and the page runs on script hashes. */
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

function remember(key: string, bytes: Uint8Array<ArrayBuffer>): Uint8Array<ArrayBuffer> {
  cache.set(key, bytes)
  cachedBytes += bytes.byteLength
  for (const [oldest, old] of cache) {
    if (cachedBytes <= CACHE_BYTES) break
    cache.delete(oldest)
    cachedBytes -= old.byteLength
  }
  return bytes
}

function recall(key: string): Uint8Array<ArrayBuffer> | undefined {
  const hit = cache.get(key)
  if (hit) {
    cache.delete(key)
    cache.set(key, hit)
  }
  return hit
}

async function pageBytes(file: string): Promise<Uint8Array<ArrayBuffer>> {
  const hit = recall(file)
  if (hit) return hit
  const { readFile } = await import('node:fs/promises')
  return remember(file, new Uint8Array(await readFile(file)))
}

/** What a rebased file's headers need: computed once per file from its rebased text. */
const rebasedMeta = new Map<string, { hashes: string[]; etag: string } | null>()

/**
 * A file of the build served under this server's origins: its text rebased, its inline-script hashes and etag
 * computed again, compressed (off the main thread) in the encoding asked for, and kept like the built files.
 * Undefined when the build's origins cannot be rebased to these (the page then renders live).
 */
async function rebasedFile(
  path: string,
  page: Manifest['pages'][string],
  built: Origins,
  served: Origins,
  suffix: string,
): Promise<{ bytes: Uint8Array<ArrayBuffer>; hashes: string[]; etag: string } | undefined> {
  const text = async () => rebase(new TextDecoder().decode(await pageBytes(path)), built, served)
  let meta = rebasedMeta.get(path)
  if (meta === undefined) {
    const rebased = await text()
    const { createHash } = await import('node:crypto')
    meta =
      rebased === undefined
        ? null
        : {
            hashes: page.script ? [] : inlineScriptHashes(rebased),
            etag: `"${createHash('sha1').update(rebased).digest('base64url')}"`,
          }
    rebasedMeta.set(path, meta)
  }
  if (!meta) return undefined
  const key = `rebased${suffix}:${path}`
  const hit = recall(key)
  if (hit) return { bytes: hit, ...meta }
  const plain = new TextEncoder().encode((await text())!) as Uint8Array<ArrayBuffer>
  const { promisify } = await import('node:util')
  const zlib = await import('node:zlib')
  const compressed =
    suffix === '.br'
      ? await promisify(zlib.brotliCompress)(plain, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 10 } })
      : suffix === '.gz'
        ? await promisify(zlib.gzip)(plain, { level: 9 })
        : plain
  return { bytes: remember(key, new Uint8Array(compressed)), ...meta }
}

function pickEncoding(request: Request): { suffix: string; encoding?: string } {
  const accepted = request.headers.get('accept-encoding') ?? ''
  if (/\bbr\b/.test(accepted)) return { suffix: '.br', encoding: 'br' }
  if (/\bgzip\b/.test(accepted)) return { suffix: '.gz', encoding: 'gzip' }
  return { suffix: '' }
}

/** The origins this server shows in its pages, as the build's manifest records them. */
function servedOrigins(env: ServerEnv): Origins {
  return { baseUrl: new URL(env.PUBLIC_BASE_URL).origin, apiBaseUrl: env.PUBLIC_API_BASE_URL }
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
  if (!loaded) return undefined
  const path = url.pathname.length > 1 ? url.pathname.replace(/\/$/, '') : '/'
  const page = loaded.manifest.pages[path]
  if (!page) return undefined
  const { suffix, encoding } = pickEncoding(request)
  const built = { baseUrl: loaded.manifest.baseUrl, apiBaseUrl: loaded.manifest.apiBaseUrl ?? loaded.manifest.baseUrl }
  const served = servedOrigins(env)
  const asBuilt = built.baseUrl === served.baseUrl && built.apiBaseUrl === served.apiBaseUrl
  const file = `${loaded.dir}/${page.file}`
  const rebased = asBuilt ? undefined : await rebasedFile(file, page, built, served, suffix)
  if (!asBuilt && !rebased) return undefined
  const etag = rebased?.etag ?? page.etag
  const headers = new Headers({
    'content-type': page.script ? 'text/javascript; charset=utf-8' : 'text/html; charset=utf-8',
    'cache-control': page.script ? 'public, max-age=31536000, immutable' : 'public, max-age=0, must-revalidate',
    etag,
    vary: 'Accept-Encoding',
    'x-prerendered': '1',
  })
  if (encoding) headers.set('content-encoding', encoding)
  const policy = contentSecurityPolicy({ hashes: rebased?.hashes ?? page.hashes }, env)
  if (request.headers.get('if-none-match') === etag)
    return { response: new Response(null, { status: 304, headers }), policy }
  const body = request.method === 'HEAD' ? null : (rebased?.bytes ?? (await pageBytes(`${file}${suffix}`)))
  return { response: new Response(body, { status: 200, headers }), policy }
}
