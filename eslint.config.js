// Lint for bugs and for the shape of the code: which layer may import which. Formatting is Prettier's job.
import { defineConfig, globalIgnores } from 'eslint/config'
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript'
import importX from 'eslint-plugin-import-x'
import tseslint from 'typescript-eslint'

const root = import.meta.dirname

// The layers, by the files they hold. Each file belongs to at most one, so one block per layer sets its rules.
const shared = ['app.config.ts', 'content/**', 'app/lib/**', 'app/contracts/**']
const client = [
  'app/components/**',
  'app/features/**',
  'app/router.tsx',
  'app/routes/{-$locale}/**',
  'app/routes/__root.tsx',
]
/** Server functions and server-only modules next to the features: Start keeps their server half out of browsers. */
const clientExceptions = ['app/features/**/*.functions.ts', 'app/features/**/*.server.ts']
const foundation = [
  'app/server/env.ts',
  'app/server/log.ts',
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

const ui = {
  from: ['app/features/**', 'app/components/**', 'app/routes/**'],
  message: 'Server code never imports pages or components: move what both need into app/contracts or app/lib.',
}
const anyServer = {
  from: ['app/server/**'],
  message:
    'This runs in browsers, where server code must not go (the build refuses it too): put shared types and schemas in app/contracts or app/lib, and reach the server through a server function (*.functions.ts) or the HTTP API.',
}

/** One block per layer: `forbid` lists zones of files it may not import, each saying what to do instead. */
function layer(name, { files, ignores = [], forbid, rules = {} }) {
  const zones = forbid.map(({ from, except, message }) => ({
    target: files,
    from,
    // Exceptions to a glob must be globs, matched against absolute paths: one brace pattern for the list.
    ...(except && { except: [`${root}/{${except.join(',')}}`] }),
    message,
  }))
  return {
    name: `layers/${name}`,
    files: files.map((glob) => (glob.endsWith('**') ? `${glob}/*.{ts,tsx}` : glob)),
    ignores,
    rules: { 'import-x/no-restricted-paths': ['error', { basePath: root, zones }], ...rules },
  }
}

const layers = [
  layer('shared', {
    files: shared,
    forbid: [
      { ...anyServer, message: `Shared code runs in browsers and on the server. ${anyServer.message}` },
      {
        from: ui.from,
        message:
          'Shared code sits below the pages and components: move what it needs from them into app/lib or app/contracts.',
      },
    ],
  }),
  layer('client', { files: client, ignores: clientExceptions, forbid: [anyServer] }),
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
    ],
  }),
  layer('domain', {
    files: domain,
    forbid: [
      {
        from: ['app/server/http/**', 'app/server/api/**', 'app/server/providers/**'],
        message:
          'The domain knows no HTTP, operations or providers: return results or throw refusals (domain/refusals.ts) for app/server/api and app/server/http to turn into answers, and take what a provider does as an argument.',
      },
      ui,
    ],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(nodemailer|ioredis|postgres|@electric-sql/pglite|drizzle-orm/(postgres-js|pglite))(/.*)?$',
              message:
                'The domain gets a Db handle (app/server/db/types.ts) and never a transport: connections, mail and Redis belong to app/server/db and app/server/providers.',
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
        from: ['app/server/http/**', 'app/server/api/**'],
        message:
          'Providers (email, captcha, rate-limit stores) are called by the operations and the HTTP layer, never the other way round: take request details as arguments.',
      },
      ui,
    ],
  }),
  layer('api', {
    files: api,
    forbid: [
      {
        from: ['app/server/http/**'],
        message:
          'Operations serve both the REST routes and the server functions, so they know no HTTP: take parsed input, return results, throw refusals; app/server/http maps them to answers.',
      },
      ui,
    ],
  }),
  layer('server', {
    files: ['app/server/**'],
    ignores: [...foundation, ...db, ...domain, ...providers, ...api].map((glob) =>
      glob.endsWith('**') ? `${glob}/*` : glob,
    ),
    forbid: [ui],
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
