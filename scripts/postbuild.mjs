// After `vite build`: moves the prerendered pages out of the static folder (so they are served through
// the request middleware with their guards and headers), strips the build-time nonce, defers their client
// runtime (./defer-hydration.mjs, which moves the router's hydration data to a script file served alongside),
// records the hashes of their inline scripts for the page's CSP, and writes gzip and brotli copies. The manifest
// names the public origin and API base URL the pages were rendered for: a server configured with
// others renders live.
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
import { deferHydration } from './defer-hydration.mjs'
import { recordedHashFile, sourceHash } from '../build/source-hash.mjs'

const publicDir = '.output/public'
const outDir = '.output/server/prerendered'
const NONCE = 'prerender-nonce'

function* htmlFiles(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) yield* htmlFiles(path)
    else if (name === 'index.html') yield path
  }
}

function writeCompressed(target, text, brotliQuality = 9) {
  mkdirSync(dirname(target), { recursive: true })
  writeFileSync(target, text)
  writeFileSync(`${target}.gz`, gzipSync(text, { level: 9 }))
  writeFileSync(
    `${target}.br`,
    brotliCompressSync(text, { params: { [constants.BROTLI_PARAM_QUALITY]: brotliQuality } }),
  )
}

if (!existsSync(publicDir)) process.exit(0)
rmSync(outDir, { recursive: true, force: true })
const pages = {}
let baseUrl
let apiBaseUrl
for (const file of htmlFiles(publicDir)) {
  // Without the meta the browser's router renders head tags without a nonce too, matching this HTML.
  const { html, data } = deferHydration(
    readFileSync(file, 'utf8')
      .replaceAll(`<meta property="csp-nonce" content="${NONCE}"/>`, '')
      .replaceAll(` nonce="${NONCE}"`, ''),
  )
  if (data) {
    writeCompressed(join(outDir, data.path), data.body)
    // Named by its content's hash, which serves as its etag too.
    const hash = data.path.replace(/^\/_hydration\/|\.js$/g, '')
    pages[data.path] = { file: data.path.slice(1), hashes: [], etag: `"${hash}"`, script: true }
  }
  if (html.includes(NONCE)) throw new Error(`${file}: the build nonce survives outside a script tag`)
  const hashes = [
    ...html.matchAll(/<script(?![^>]*\bsrc=)(?![^>]*type="application\/ld\+json")[^>]*>([\s\S]*?)<\/script>/g),
  ].map(([, body]) => `sha256-${createHash('sha256').update(body).digest('base64')}`)
  const rel = relative(publicDir, file)
  const route = `/${dirname(rel)}`.replace(/\/\.$/, '').replace(/^\/$/, '/') || '/'
  baseUrl ??= html.match(/<link rel="canonical" href="([^"]+)"/)?.[1]
  // The root writes it as a JSON string literal (app/routes/__root.tsx).
  apiBaseUrl ??= JSON.parse(html.match(/window\.__API_BASE_URL__=("(?:[^"\\]|\\.)*")/)?.[1] ?? 'null') ?? undefined
  // Each page is a first round trip: quality 10 keeps the larger ones within the first ~14 KB window (9 does not
  // for /ja); 11 would save 2% more for three times the compression time (a 41 s build instead of 29 s).
  writeCompressed(join(outDir, rel), html, 10)
  pages[route === '/.' ? '/' : route] = {
    file: rel,
    hashes: [...new Set(hashes)],
    etag: `"${createHash('sha1').update(html).digest('base64url')}"`,
  }
  rmSync(file)
  for (const suffix of ['.gz', '.br']) rmSync(`${file}${suffix}`, { force: true })
}
const manifest = { baseUrl: baseUrl ? new URL(baseUrl).origin : null, apiBaseUrl: apiBaseUrl ?? null, pages }
writeFileSync(join(outDir, 'manifest.json'), JSON.stringify(manifest))
writeFileSync(recordedHashFile, sourceHash())
console.log(
  `[postbuild] ${Object.values(pages).filter((page) => !page.script).length} prerendered pages for ${manifest.baseUrl} (API at ${manifest.apiBaseUrl})`,
)
