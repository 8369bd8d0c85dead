// Lint for bugs and for the shape of the code: which layer may import which (the table is lint/layers.js).
// Formatting is Prettier's job.
import { readdirSync } from 'node:fs'
import { defineConfig, globalIgnores } from 'eslint/config'
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript'
import importX from 'eslint-plugin-import-x'
import tseslint from 'typescript-eslint'
import { layers, outside, sourceFiles } from './lint/layers.js'
import layersPlugin from './lint/plugin.js'

const root = import.meta.dirname

/** A zone's `from` must be all globs: a plain file path becomes a brace pattern naming it alone. */
const asGlob = (path) => (/[*{]/.test(path) ? path : path.replace(/\.(tsx?)$/, '.{$1,$1}'))
/** ESLint's `files` name files: a folder glob means the TypeScript files in it. */
const asFiles = (glob) => (glob.endsWith('**') ? `${glob}/*.{ts,tsx}` : glob)
/** Exceptions to a glob are globs matched against absolute paths: one brace pattern for the list. */
const absolute = (globs) => `${root}/${globs.length > 1 ? `{${globs.map(asGlob).join(',')}}` : asGlob(globs[0])}`

const features = readdirSync(`${root}/app/features`, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)

/** The zones a layer may not import: every other layer it does not name, the files it names alone excepted. */
function zonesOf(name, { files, may, refuse = [], ownFolder, advice }) {
  const allowed = new Map(
    may.map((entry) => (typeof entry === 'string' ? [entry, undefined] : [entry.layer, entry.only])),
  )
  const zones = Object.entries(layers)
    .filter(([other]) => other !== name && !(allowed.has(other) && !allowed.get(other)))
    .map(([other, layer]) => {
      const except = allowed.get(other) ?? layer.ignores
      return {
        target: files,
        from: layer.files.map(asGlob),
        ...(except && { except: [absolute(except)] }),
        message: `The ${name} layer does not import the ${other} layer. ${advice}`,
      }
    })
  for (const refused of refuse)
    zones.push({
      target: files,
      from: refused.files.map(asGlob),
      message: `The ${name} layer does not import ${refused.files.join(', ')}. ${refused.because}`,
    })
  zones.push({
    target: files,
    from: outside,
    message: 'App code never imports the tests, the build’s plugins, the scripts or local/: they sit beside the app.',
  })
  // A feature, and a feature's server functions, import nothing of another feature's folder.
  if (ownFolder)
    for (const feature of features)
      zones.push({
        target: [`app/features/${feature}/**`],
        from: ['app/features/**'],
        except: [absolute([`app/features/${feature}/**`])],
        message: `A feature does not import another feature. ${advice}`,
      })
  return zones
}

/** One block per layer: its path zones, its packages, and a mark (`settings.layer`) the layering test reads. */
const layerBlocks = Object.entries(layers).map(([name, layer]) => ({
  name: `layers/${name}`,
  files: layer.files.map(asFiles),
  ignores: (layer.ignores ?? []).map(asFiles),
  plugins: { layers: layersPlugin },
  settings: { layer: { [name]: true } },
  rules: {
    'import-x/no-restricted-paths': ['error', { basePath: root, zones: zonesOf(name, layer) }],
    'layers/packages': ['error', { ...layer.packages, layer: name, advice: layer.advice }],
  },
}))

/** A source file no layer holds is refused outright, so a new folder cannot slip past every rule. */
const unassignedBlock = {
  name: 'layers/unassigned',
  files: sourceFiles,
  ignores: Object.values(layers).flatMap((layer) => layer.files.map(asFiles)),
  plugins: { layers: layersPlugin },
  rules: { 'layers/unassigned': 'error' },
}

/**
 * A raw sql condition handed to and(), not(), where() or having() goes in as written, without parentheses:
 * `and(owner, sql\`a or b\`)` reads `(owner and a) or b`, every owner's rows (a key once read every
 * customer's purchases so). Its `or` is refused; drizzle's or() parenthesises what it joins.
 */
const conditionCall = 'CallExpression:matches([callee.name=/^(and|not)$/], [callee.property.name=/^(where|having)$/])'
const rawOr = "TaggedTemplateExpression[tag.name='sql'] > TemplateLiteral > TemplateElement[value.raw=/\\bor\\b/i]"
const rawOrMessage =
  'A raw sql condition is not parenthesised where and(), not() or where() put it, so its `or` can widen the query to every owner’s rows: write the alternatives with drizzle’s or(), e.g. or(ne(t.status, …), isNotNull(t.paymentId)).'
const ownerQueries = {
  files: ['app/server/**/*.ts'],
  rules: {
    'no-restricted-syntax': [
      'error',
      { selector: `${conditionCall} > ${rawOr}`, message: rawOrMessage },
      {
        selector: `${conditionCall} > :matches(ConditionalExpression, LogicalExpression) > ${rawOr}`,
        message: rawOrMessage,
      },
    ],
  },
}

/**
 * Operations and the domain know no HTTP: the Request stays at the edge (app/server/http), which reads what
 * they need (the request id, the client's address, the key, the session) into the Caller.
 */
const noRequestMessage =
  'Operations and the domain take the Caller (app/server/api/caller.ts), never the Request: read what they need from it at the edge, in app/server/http/caller-of.ts.'
const noRequest = {
  files: ['app/server/api/**/*.ts', 'app/server/domain/**/*.ts'],
  rules: {
    '@typescript-eslint/no-restricted-types': ['error', { types: { Request: noRequestMessage } }],
    'no-restricted-globals': ['error', { name: 'Request', message: noRequestMessage }],
  },
}

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
  ownerQueries,
  noRequest,
  unassignedBlock,
  ...layerBlocks,
])
