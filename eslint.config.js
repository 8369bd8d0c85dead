// Lint for bugs and for the shape of the code: which layer may import which. Formatting is Prettier's job.
import { readdirSync } from 'node:fs'
import { defineConfig, globalIgnores } from 'eslint/config'
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript'
import importX from 'eslint-plugin-import-x'
import tseslint from 'typescript-eslint'

const root = import.meta.dirname

// The layers, by the files they hold. Each file belongs to at most one, so one block per layer sets its rules.
// tests/unit/layering.test.ts lints a file that breaks each rule (tests/fixtures/layering/) and fails if one passes.
const features = readdirSync(`${root}/app/features`, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
const contracts = ['app/contracts/**']
const content = ['content/**', 'app.config.ts']
const lib = ['app/lib/**']
const components = ['app/components/**']
const pages = ['app/routes/{-$locale}/**', 'app/routes/__root.tsx']
/** Every route that is no page: the REST endpoints, the search APIs, health, robots and the sitemap. */
const endpoints = [
  'app/routes/api/**',
  'app/routes/internal/**',
  'app/routes/v1/**',
  'app/routes/r/**',
  'app/routes/*.ts',
]
/** The app's composition: Start's instance and server entry, the router, the request middleware. */
const root_ = ['app/start.ts', 'app/server.ts', 'app/router.tsx', 'app/endpoint-methods.ts', 'app/middleware/**']
/** Server functions and server-only modules next to the features: Start keeps their server half out of browsers. */
const serverEdges = ['app/features/**/*.functions.ts', 'app/features/**/*.server.ts']
const foundation = [
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
]
const db = ['app/server/db/**']
const domain = ['app/server/domain/**']
const providers = ['app/server/providers/**']
const api = ['app/server/api/**']
const http = ['app/server/http/**']
const composition = [
  'app/start.ts',
  'app/server.ts',
  'app/router.tsx',
  'app/endpoint-methods.ts',
  'app/routeTree.gen.ts',
]

const ui = {
  from: ['app/features/**', 'app/components/**', 'app/routes/**'],
  message: 'Server code never imports pages or components: move what both need into app/contracts or app/lib.',
}
const anyServer = {
  from: ['app/server/**'],
  message:
    'This runs in browsers, where server code must not go (the build refuses it too): put shared types and schemas in app/contracts or app/lib, and reach the server through a server function (*.functions.ts) or the HTTP API.',
}
const top = {
  from: [...composition, 'app/middleware/**'],
  message:
    'The route tree, the router and Start’s entries sit on top: nothing below imports them (a route path type comes from RegisteredRouter, see app/lib/page-path.ts).',
}
const belowOperations = {
  from: [...db, ...domain, ...providers],
  message:
    'Routes, server functions and the app’s entries reach the database, the domain and the providers through an operation of app/server/api (and app/server/http for answers), so every caller gets the same checks.',
}

/** A zone's `from` must be all globs: a plain file path becomes a brace pattern naming it alone. */
const asGlob = (path) => (/[*{]/.test(path) ? path : path.replace(/\.(tsx?)$/, '.{$1,$1}'))

/** One block per layer: `forbid` lists zones of files it may not import, each saying what to do instead. */
function layer(name, { files, ignores = [], forbid, rules = {} }) {
  const zones = forbid.map(({ from, except, message, target = files }) => ({
    target,
    from: from.map(asGlob),
    // Exceptions to a glob must be globs, matched against absolute paths: one brace pattern for the list.
    ...(except && { except: [`${root}/${except.length > 1 ? `{${except.join(',')}}` : except[0]}`] }),
    message,
  }))
  return {
    name: `layers/${name}`,
    files: files.map((glob) => (glob.endsWith('**') ? `${glob}/*.{ts,tsx}` : glob)),
    ignores: ignores.map((glob) => (glob.endsWith('**') ? `${glob}/*` : glob)),
    rules: { 'import-x/no-restricted-paths': ['error', { basePath: root, zones }], ...rules },
  }
}

/** The domain's third-party packages: the query builder, hashing and tokens. Anything else is a provider's. */
const domainPackages = ['drizzle-orm', 'drizzle-orm/pg-core', 'node:crypto', 'jose', 'valibot']
const escape = (name) => name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')

const layers = [
  layer('content', {
    files: content,
    forbid: [
      { ...anyServer, message: `Content is read in browsers and on the server. ${anyServer.message}` },
      {
        from: [...ui.from, ...contracts, 'app/middleware/**', ...composition],
        message:
          'Content (and app.config.ts) is the bottom layer: it names pages by PagePath (app/lib/page-path.ts) and imports nothing else of the app.',
      },
      {
        from: lib,
        except: ['app/lib/page-path.{ts,ts}'],
        message: 'Content imports nothing of app/lib but the PagePath type.',
      },
    ],
  }),
  layer('contracts', {
    files: contracts,
    forbid: [
      { ...anyServer, message: `Contracts are shared by browsers and the server. ${anyServer.message}` },
      {
        from: [...ui.from, 'app/middleware/**', ...composition],
        message: 'Contracts (endpoint schemas) sit on app/lib and content: move what they need there.',
      },
    ],
  }),
  layer('lib', {
    files: lib,
    forbid: [
      { ...anyServer, message: `app/lib runs in browsers and on the server. ${anyServer.message}` },
      {
        from: ui.from,
        message: 'app/lib sits below the pages and components: move what it needs from them into app/lib.',
      },
      top,
    ],
  }),
  layer('components', {
    files: components,
    forbid: [
      anyServer,
      {
        from: ['app/features/**', 'app/routes/**'],
        message:
          'Components are shared by every feature and know none: move the part they need into app/components or app/lib, or pass it in as a prop.',
      },
      top,
    ],
  }),
  layer('features', {
    files: ['app/features/**'],
    ignores: serverEdges,
    forbid: [
      anyServer,
      { from: ['app/routes/**'], message: 'Features are rendered by routes and never import them.' },
      top,
      ...features.map((feature) => ({
        target: [`app/features/${feature}/**`],
        from: ['app/features/**'],
        except: [`app/features/${feature}/**`],
        message:
          'A feature does not import another feature: move the shared part into app/components (UI) or app/lib (logic).',
      })),
    ],
  }),
  layer('server-functions', {
    files: serverEdges,
    forbid: [
      belowOperations,
      { ...ui, from: ['app/components/**', 'app/routes/**'] },
      top,
      ...features.map((feature) => ({
        target: [`app/features/${feature}/**`],
        from: ['app/features/**'],
        except: [`app/features/${feature}/**`],
        message: 'A feature’s server functions do not import another feature’s: share through app/server/api.',
      })),
    ],
  }),
  layer('pages', { files: pages, forbid: [anyServer, top] }),
  layer('endpoints', {
    files: endpoints,
    forbid: [
      belowOperations,
      {
        from: ['app/features/**', 'app/components/**', 'app/routes/{-$locale}/**'],
        message:
          'An endpoint answers data, never pages: what it shares with a page belongs in app/contracts or app/lib.',
      },
      top,
    ],
  }),
  layer('composition', {
    files: root_,
    forbid: [belowOperations, { ...ui, from: ['app/features/**', 'app/components/**'] }],
  }),
  layer('server-foundation', {
    files: foundation,
    forbid: [
      {
        from: ['app/server/**'],
        except: foundation,
        message:
          'The server foundation (env, log, request-context, lifecycle, runtime, node-capabilities, connection-scope) depends on nothing else in app/server: take what it needs as arguments.',
      },
      ui,
      top,
    ],
  }),
  layer('db', {
    files: db,
    forbid: [
      {
        from: ['app/server/**'],
        except: [...foundation, ...db],
        message:
          'app/server/db holds the schema and the connection and may use only the server foundation and shared code: move logic that needs more into app/server/domain.',
      },
      ui,
      top,
    ],
  }),
  layer('domain', {
    files: domain,
    forbid: [
      {
        from: [...http, ...api, ...providers],
        message:
          'The domain knows no HTTP, operations or providers: return results or throw refusals (domain/refusals.ts) for app/server/api and app/server/http to turn into answers, and take what a provider does as an argument.',
      },
      ui,
      top,
    ],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              // Any package but the few the rules need (relative, ~/ and #content imports start otherwise).
              regex: `^(?![.~#/])(?!(?:${domainPackages.map(escape).join('|')})$).+`,
              message: `The domain imports only ${domainPackages.join(', ')} of the outside world: a transport, an SDK or a server belongs to app/server/providers (or app/server/db), which the domain takes as an argument.`,
            },
          ],
        },
      ],
    },
  }),
  layer('providers', {
    files: providers,
    forbid: [
      {
        from: [...http, ...api],
        message:
          'Providers (email, captcha, rate-limit stores) are called by the operations and the HTTP layer, never the other way round: take request details as arguments.',
      },
      ui,
      top,
    ],
  }),
  layer('api', {
    files: api,
    forbid: [
      {
        from: http,
        message:
          'Operations serve both the REST routes and the server functions, so they know no HTTP: take parsed input, return results, throw refusals; app/server/http maps them to answers.',
      },
      ui,
      top,
    ],
  }),
  layer('http', {
    files: http,
    forbid: [
      {
        from: db,
        except: ['app/server/db/{types,unavailable}.ts'],
        message:
          'The HTTP edge parses input and maps results to answers; reading or writing the database is an operation’s (app/server/api) or the domain’s.',
      },
      ui,
      top,
    ],
  }),
  layer('server', {
    files: ['app/server/**'],
    ignores: [...foundation, ...db, ...domain, ...providers, ...api, ...http],
    forbid: [ui, top],
  }),
]

export default defineConfig([
  globalIgnores([
    'app/routeTree.gen.ts',
    'app/server/db/migrations/',
    'locales/',
    'public/',
    '.output/',
    '.nitro/',
    '.tanstack/',
    'dist/',
    '.wrangler/',
    '.data/',
    'tests/.tmp/',
    'tests/bench/.results/',
  ]),
  {
    files: ['**/*.{ts,tsx}'],
    extends: [tseslint.configs.recommended],
    rules: {
      // Casts at the edges (JSON, test doubles) are deliberate, and tsc checks the rest.
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
    },
  },
  {
    files: ['**/*.{js,mjs}'],
    rules: { 'no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }] },
  },
  {
    files: ['**/*.{js,mjs,ts,tsx}'],
    rules: {
      // Mistakes the type checker lets through.
      'no-constant-binary-expression': 'error',
      'no-self-compare': 'error',
      'no-unsafe-finally': 'error',
      'no-unsafe-optional-chaining': 'error',
      'no-async-promise-executor': 'error',
      'no-fallthrough': 'error',
      'no-debugger': 'error',
      'no-empty-pattern': 'error',
      'use-isnan': 'error',
      eqeqeq: ['error', 'always', { null: 'ignore' }],
    },
  },
  {
    files: ['app/**/*.{ts,tsx}', 'content/**/*.ts', 'app.config.ts'],
    plugins: { 'import-x': importX },
    settings: {
      // Without these import-x reads only .js files and silently skips every TypeScript module in a cycle.
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/external-module-folders': ['node_modules', 'node_modules/@types'],
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: `${root}/tsconfig.json` })],
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-self-import': 'error',
    },
  },
  ...layers,
])
