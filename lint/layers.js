// The layers of the app, bottom up: which files each holds, which layers it may import, which packages.
// eslint.config.js turns this table into rules; tests/unit/layering.test.ts lints a deliberate violation of each
// kind (tests/fixtures/layering/) and checks that every source file belongs to exactly one layer.

/** What browser code is built from: React, its router and query cache, the UI kit, the messages, the schemas. */
const ui = [
  'react',
  'react-dom',
  '@lingui/core',
  '@lingui/react',
  '@tanstack/react-router',
  '@tanstack/react-query',
  'radix-ui',
  'class-variance-authority',
  'lucide-react',
  'sonner',
  'valibot',
]
/** Packages that only make sense in a browser: server code that imports them has taken a page's job. */
const browserOnly = [
  'react',
  'react-dom',
  '@lingui/react',
  '@tanstack/react-router',
  '@tanstack/react-query',
  'radix-ui',
  'class-variance-authority',
  'lucide-react',
  'sonner',
  'firebase',
]

/**
 * The request's ambient scope (AsyncLocalStorage): the foundation reads it (log lines, the environment per
 * request) and the HTTP edge reads it into the Caller; an operation or the domain that read it would act on
 * state no argument shows.
 */
const ambientScope = {
  files: ['app/server/request-context.ts'],
  because:
    'Operations and the domain read nothing ambient: who calls, from where and in which request come in the Caller (app/server/http/caller-of.ts builds it) or as an argument (an AuditBy, a request id).',
}

/**
 * Each layer: `files` (globs; `ignores` carve out what another layer holds), `may` (the layers it may import
 * besides itself; `{ layer, only }` allows just those files of it), `refuse` (files of a layer it may import
 * that it still may not, each with `because`), `packages` (`allow`: only these; `deny`: any but these;
 * `node:*` is every Node built-in) and `advice`, said with every refusal.
 */
export const layers = {
  content: {
    files: ['content/**', 'app.config.ts'],
    may: [{ layer: 'lib', only: ['app/lib/page-path.ts'] }],
    packages: { allow: ['valibot', '@lingui/core'] },
    advice:
      'Content and app.config.ts are the bottom layer, read by browsers and the server alike: they name pages by the PagePath type (app/lib/page-path.ts) and import nothing else of the app, and of packages only valibot and Lingui’s message macro.',
  },
  contracts: {
    files: ['app/contracts/**'],
    may: ['lib', 'content'],
    packages: { allow: ['valibot'] },
    advice:
      'Contracts (endpoint schemas) are shared by browsers and the server: they build on app/lib and content, and of packages only on valibot.',
  },
  lib: {
    files: ['app/lib/**'],
    may: ['contracts', 'content'],
    packages: { allow: [...ui, '@tanstack/react-start', 'altcha-lib', 'clsx', 'firebase', 'ipaddr.js'] },
    advice:
      'app/lib runs in browsers and on the server: move what it needs from pages, components or the server into app/lib, and reach the server through a server function (*.functions.ts) or the HTTP API.',
  },
  components: {
    files: ['app/components/**'],
    may: ['lib', 'contracts', 'content'],
    packages: { allow: ui },
    advice:
      'Components are shared by every feature and know none: move the part they need into app/components or app/lib, or pass it in as a prop.',
  },
  features: {
    files: ['app/features/**'],
    ignores: ['app/features/**/*.functions.ts', 'app/features/**/*.server.ts'],
    may: ['server-functions', 'components', 'lib', 'contracts', 'content'],
    packages: { allow: [...ui, 'firebase'] },
    ownFolder: true,
    advice:
      'Features run in browsers: they use components and app/lib, reach the server through their server functions (*.functions.ts), and never import another feature (a shared part lives in app/components or app/lib; a route hands one feature’s part to another’s page as a prop).',
  },
  'server-functions': {
    files: ['app/features/**/*.functions.ts', 'app/features/**/*.server.ts'],
    may: ['features', 'http', 'api', 'foundation', 'lib', 'contracts', 'content'],
    packages: { allow: ['@tanstack/react-start', 'valibot', 'marked'] },
    ownFolder: true,
    advice:
      'Server functions call an operation of app/server/api (and app/server/http for answers), so every caller gets the same checks; a feature’s server functions do not import another feature’s.',
  },
  pages: {
    files: ['app/routes/{-$locale}/**', 'app/routes/__root.tsx'],
    may: ['features', 'server-functions', 'components', 'lib', 'contracts', 'content'],
    packages: { allow: [...ui, '@tanstack/react-start', '@fontsource-variable/inter'] },
    advice:
      'Pages render features and components; what they need from the server comes through a feature’s server function.',
  },
  endpoints: {
    files: [
      'app/routes/api/**',
      'app/routes/internal/**',
      'app/routes/v1/**',
      'app/routes/r/**',
      'app/routes/s/**',
      'app/routes/*.ts',
    ],
    may: ['http', 'api', 'foundation', 'lib', 'contracts', 'content'],
    packages: { allow: ['@tanstack/react-router', '@tanstack/react-start', 'valibot', 'node:stream'] },
    advice:
      'An endpoint is `endpoint(spec, run)`: it parses with app/server/http, calls one operation of app/server/api, and answers data, never pages.',
  },
  middleware: {
    files: ['app/middleware/**'],
    may: ['http', 'api', 'foundation', 'lib', 'contracts', 'content'],
    packages: { allow: ['@tanstack/react-start'] },
    advice:
      'A request middleware does one concern through app/server/http (it loads in browsers too, where Start strips its body).',
  },
  entries: {
    files: [
      'app/start.ts',
      'app/server.ts',
      'app/server-handler.ts',
      'app/router.tsx',
      'app/endpoint-methods.ts',
      'app/routeTree.gen.ts',
      'app/server/boot.ts',
      'app/server/shutdown.ts',
    ],
    may: ['pages', 'endpoints', 'middleware', 'http', 'api', 'foundation', 'lib', 'contracts', 'content'],
    packages: { allow: ['@tanstack/react-start', '@tanstack/react-router', 'react', 'react-dom', 'nitro'] },
    advice:
      'The entries (Start’s instance, the server and browser entries, the router, the Nitro plugins) sit on top and compose the rest through app/server/api and app/server/http: nothing imports them (a route path type comes from RegisteredRouter, app/lib/page-path.ts).',
  },
  'browser-entry': {
    files: ['app/client.tsx'],
    may: ['lib', 'contracts', 'content'],
    packages: { allow: ['@tanstack/react-start', 'react', 'react-dom'] },
    advice:
      'The browser entry loads the page’s catalogs and hydrates Start’s client: it runs only in browsers, so it uses app/lib and nothing of the server.',
  },
  http: {
    files: ['app/server/http/**'],
    may: [
      'api',
      'domain',
      'providers',
      { layer: 'db', only: ['app/server/db/types.ts', 'app/server/db/unavailable.ts'] },
      'foundation',
      'lib',
      'contracts',
      'content',
    ],
    packages: { deny: browserOnly },
    advice:
      'The HTTP edge parses input and maps results to answers; reading or writing the database is an operation’s (app/server/api) or the domain’s.',
  },
  api: {
    files: ['app/server/api/**'],
    may: ['domain', 'providers', 'db', 'foundation', 'lib', 'contracts', 'content'],
    refuse: [ambientScope],
    packages: { deny: browserOnly },
    advice:
      'Operations serve both the REST routes and the server functions, so they know no HTTP: take parsed input, return results, throw refusals; app/server/http maps them to answers.',
  },
  providers: {
    files: ['app/server/providers/**'],
    may: ['domain', 'db', 'foundation', 'lib', 'contracts', 'content'],
    packages: { deny: browserOnly },
    advice:
      'Providers (e-mail, captcha, rate-limit stores, payments, storage, engines) are called by the operations and the HTTP layer, never the other way round: take request details as arguments.',
  },
  domain: {
    files: ['app/server/domain/**'],
    may: ['db', 'foundation', 'lib', 'contracts', 'content'],
    refuse: [ambientScope],
    packages: { allow: ['drizzle-orm', 'drizzle-orm/pg-core', 'node:crypto', 'jose', 'valibot'] },
    advice:
      'The domain knows no HTTP, operations or providers, and of the outside world only the query builder, hashing, tokens and schemas: return results or throw refusals (domain/refusals.ts), and take what a provider does as an argument.',
  },
  db: {
    files: ['app/server/db/**'],
    may: ['foundation', 'lib', 'contracts', 'content'],
    packages: { allow: ['drizzle-orm', '@electric-sql/pglite', 'postgres', 'node:*', 'valibot'] },
    advice:
      'app/server/db holds the schema, the connection and the migrations and uses only the server foundation: move logic that needs more into app/server/domain.',
  },
  foundation: {
    files: [
      'app/server/env.ts',
      'app/server/env-rules.ts',
      'app/server/env-settings.ts',
      'app/server/log.ts',
      'app/server/metrics.ts',
      'app/server/metrics.edge.ts',
      'app/server/request-context.ts',
      'app/server/lifecycle.ts',
      'app/server/runtime.ts',
      'app/server/runtime.edge.ts',
      'app/server/node-capabilities.ts',
      'app/server/connection-scope.ts',
      'app/server/connection-scope.edge.ts',
      'app/server/paced.ts',
      'app/server/paced-json.ts',
      'app/server/cloudflare-workers.d.ts',
      'app/server/server-entry-module.d.ts',
    ],
    may: ['lib', 'contracts', 'content'],
    packages: { allow: ['valibot', 'prom-client', 'node:*', 'cloudflare:workers'] },
    advice:
      'The server foundation (environment, logging, metrics, the request scope, shutdown, the runtime, CPU work in slices) depends on nothing else in app/server: take what it needs as arguments.',
  },
}

/** Folders no app file may import: the tests, the build's own code and the commands run beside the app. */
export const outside = ['tests/**', 'scripts/**', 'build/**', 'local/**']

/** The files the layers cover: every source file here must be in exactly one. */
export const sourceFiles = ['app/**/*.{ts,tsx}', 'content/**/*.ts', 'app.config.ts']
