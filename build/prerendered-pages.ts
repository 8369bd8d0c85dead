import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
import type { Plugin } from 'vite'
import { deferRuntime } from '../app/server/http/deferred-runtime.ts'
import { inlineScriptHashes } from '../app/server/http/inline-script-hashes.ts'
import { catalogChunks } from './catalog-chunks.ts'
import { recordedHashFile, sourceHash } from './source-hash.mjs'

const publicDir = '.output/public'
const outDir = '.output/server/prerendered'
const NONCE = 'prerender-nonce'
const nonceMeta = `<meta property="csp-nonce" content="${NONCE}"/>`
const canonical = /<link rel="canonical" href="([^"]+)"/
// The root writes it as a JSON string literal (app/routes/__root.tsx).
const apiBase = /window\.__API_BASE_URL__=("(?:[^"\\]|\\.)*")/

/** A rewrite that found nothing to rewrite means the framework's markup changed: the build stops and says where. */
function expectFound(found: unknown, file: string, what: string): void {
  if (!found) throw new Error(`[prerendered-pages] ${file}: ${what} not found; Start's markup changed, update build/`)
}

/** Where a page's hydration data is served: named by its content's hash, which serves as its etag too. */
const hydrationPath = (body: string) =>
  `/_hydration/${createHash('sha256').update(body).digest('base64url').slice(0, 22)}.js`

function* htmlFiles(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) yield* htmlFiles(path)
    else if (name === 'index.html') yield path
  }
}

function writeCompressed(target: string, text: string, brotliQuality = 9) {
  mkdirSync(dirname(target), { recursive: true })
  writeFileSync(target, text)
  writeFileSync(`${target}.gz`, gzipSync(text, { level: 9 }))
  writeFileSync(
    `${target}.br`,
    brotliCompressSync(text, { params: { [constants.BROTLI_PARAM_QUALITY]: brotliQuality } }),
  )
}

interface PageEntry {
  file: string
  hashes: string[]
  etag: string
  script?: boolean
}

/**
 * Moves the prerendered pages out of the static folder (so they are served through the request middleware
 * with their guards and headers), strips the build-time nonce, defers their client runtime
 * (app/server/http/deferred-runtime.ts, which moves the router's hydration data to a script file served
 * alongside, and stops the build when Start's markup is not what it rewrites), records
 * the hashes of their inline scripts for the page's CSP, and writes gzip and brotli copies (Nitro compresses
 * the static assets before Start prerenders, so these pages are compressed once, here). The manifest names the
 * public origin and API base URL the pages were rendered for: a server configured with others rebases them
 * (app/server/http/prerendered-origin.ts).
 */
export function writePrerenderedPages(): string {
  rmSync(outDir, { recursive: true, force: true })
  const pages: Record<string, PageEntry> = {}
  let baseUrl: string | undefined
  let apiBaseUrl: string | undefined
  for (const file of htmlFiles(publicDir)) {
    const rendered = readFileSync(file, 'utf8')
    expectFound(rendered.includes(nonceMeta), file, 'the build nonce meta tag')
    // Without the meta the browser's router renders head tags without a nonce too, matching this HTML.
    const stripped = rendered.replaceAll(nonceMeta, '').replaceAll(` nonce="${NONCE}"`, '')
    const { html, data } = deferRuntime(stripped, {
      kind: 'prerendered',
      page: file,
      dataPath: hydrationPath,
      catalogChunks: catalogChunks(),
    })
    if (data) {
      writeCompressed(join(outDir, data.path), data.body)
      // Named by its content's hash, which serves as its etag too.
      const hash = data.path.replace(/^\/_hydration\/|\.js$/g, '')
      pages[data.path] = { file: data.path.slice(1), hashes: [], etag: `"${hash}"`, script: true }
    }
    if (html.includes(NONCE)) throw new Error(`${file}: the build nonce survives outside a script tag`)
    const pageCanonical = html.match(canonical)?.[1]
    const pageApiBase = html.match(apiBase)?.[1]
    expectFound(pageCanonical, file, 'the canonical link')
    expectFound(pageApiBase, file, 'the API base URL script')
    baseUrl ??= new URL(pageCanonical!).origin
    apiBaseUrl ??= JSON.parse(pageApiBase!) as string
    const rel = relative(publicDir, file)
    const route = `/${dirname(rel)}`.replace(/\/\.$/, '') || '/'
    // Each page is a first round trip: quality 10 keeps the larger ones within the first ~14 KB window (9 does
    // not for /ja); 11 would save 2% more for three times the compression time.
    writeCompressed(join(outDir, rel), html, 10)
    pages[route === '/.' ? '/' : route] = {
      file: rel,
      hashes: inlineScriptHashes(html),
      etag: `"${createHash('sha1').update(html).digest('base64url')}"`,
    }
    rmSync(file)
  }
  const count = Object.values(pages).filter((page) => !page.script).length
  expectFound(count, publicDir, 'any prerendered page')
  const manifest = { baseUrl, apiBaseUrl, pages }
  writeFileSync(join(outDir, 'manifest.json'), JSON.stringify(manifest))
  writeFileSync(recordedHashFile, sourceHash())
  return `[prerendered-pages] ${count} prerendered pages for ${baseUrl} (API at ${apiBaseUrl})`
}

/** Runs once Start has prerendered (its own post-build step is `enforce: 'post'` too, and listed before this). */
export function prerenderedPages(): Plugin {
  return {
    name: 'lodestar:prerendered-pages',
    enforce: 'post',
    apply: 'build',
    buildApp: {
      order: 'post',
      async handler() {
        // Added only to builds that prerender (vite.config.ts), so a missing folder means Start wrote elsewhere.
        if (!existsSync(publicDir))
          throw new Error(
            `[prerendered-pages] ${publicDir} is missing after the build: where did Start write the prerendered pages?`,
          )
        console.log(writePrerenderedPages())
      },
    },
  }
}
