import { defineConfig } from 'vitest/config'
import babel from '@rolldown/plugin-babel'
import { lingui } from '@lingui/vite-plugin'
import { availableParallelism } from 'node:os'
import { fileURLToPath } from 'node:url'
import { threadSource } from './build/vite-thread-source.ts'
import { catalogChunkNames } from './build/catalog-chunks.ts'
import { LongestFirst } from './tests/e2e/support/sequencer.ts'

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url))
/**
 * Test files run side by side in the unit, integration and build projects. Vitest's default (one fewer than the
 * cores) leaves a two-core machine one file at a time while its main process mostly waits; each file has its own
 * database (tests/support/db.ts), so two at a time share nothing.
 */
const workers = Math.max(2, availableParallelism() - 1)
/** One import of the app per worker, not per file; each file still starts and stops as a server would. */
const sharedImports = { isolate: false, setupFiles: ['tests/support/file-per-server.ts'] }
/** Integration files also load the app's request handler before their first test (tests/support/app-import.ts). */
const appImports = { ...sharedImports, setupFiles: [...sharedImports.setupFiles, 'tests/support/app-import.ts'] }
/** Integration files that open no database: the same either way, so the embedded-database pass leaves them out. */
const withoutDatabase = [
  'api-reference',
  'auth-emulator-accounts',
  'onnx-engine',
  'reader-browser-ssrf',
  'reader-pool',
  'upstream-engine',
].map((name) => `tests/integration/${name}.test.ts`)
/** e2e files whose checks are timings: they run after the others, alone (project e2e-timing). */
const timingChecks = [
  'tests/e2e/event-loop.test.ts',
  'tests/e2e/reader-hostile-pages.test.ts',
  'tests/e2e/shutdown.test.ts',
]

export default defineConfig({
  plugins: [
    babel({ plugins: ['@lingui/babel-plugin-lingui-macro'] }),
    lingui(),
    threadSource({ alias: { '~': here('./app'), '#config': here('./app.config.ts') } }),
    catalogChunkNames(),
  ],
  resolve: {
    alias: {
      '~': here('./app'),
      '#content': here('./content'),
      '#config': here('./app.config.ts'),
      // Start's handler in process (tests/support/api.ts sends requests to it by URL): the entries its build
      // would name, and a manifest without client assets.
      '#tanstack-router-entry': here('./app/router.tsx'),
      '#tanstack-start-entry': here('./app/start.ts'),
      'tanstack-start-manifest:v': here('./tests/support/start-manifest.ts'),
    },
  },
  test: {
    // Start's server packages go through Vite (not Node) so that the aliases above reach their imports.
    server: { deps: { inline: [/@tanstack\/(react-)?start/] } },
    // In-process API tests refuse on purpose by the hundred; their info lines would bury real failures.
    // Start's handler in process reads what its build would define: where server functions are called.
    env: { LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn', TSS_SERVER_FN_BASE: '/_serverFn/', TSS_ROUTER_BASEPATH: '/' },
    sequence: { sequencer: LongestFirst },
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.{ts,tsx}'],
          environment: 'node',
          maxWorkers: workers,
          ...sharedImports,
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['tests/integration/**/*.test.ts'],
          environment: 'node',
          ...appImports,
          testTimeout: 60_000,
          hookTimeout: 120_000,
          maxWorkers: workers,
        },
      },
      // The integration files that open a database, once more as a fresh clone runs them: no TEST_* services (the
      // embedded PGlite, in-memory rate limits) and no CI, so suites needing a service skip as they do there.
      // `npm test` runs it when the services are set (as CI sets them), one file at a time beside the browser
      // tests, so a failure that shows only on the embedded database shows in CI too.
      {
        extends: true,
        test: {
          name: 'integration-embedded',
          include: ['tests/integration/**/*.test.ts'],
          exclude: withoutDatabase,
          environment: 'node',
          ...appImports,
          env: { TEST_DATABASE_URL: '', TEST_REDIS_URL: '', CI: '' },
          testTimeout: 60_000,
          hookTimeout: 120_000,
          maxWorkers: 1,
        },
      },
      // Builds the client with a deliberate leak and expects the import protection to stop it (seconds each).
      {
        extends: true,
        test: {
          name: 'build',
          include: ['tests/build/**/*.test.ts'],
          environment: 'node',
          testTimeout: 120_000,
          maxWorkers: workers,
        },
      },
      // Builds the Cloudflare Worker (npm run build:edge) and runs it in workerd against the local Postgres.
      {
        extends: true,
        test: {
          name: 'edge',
          include: ['tests/edge/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
          // The build beside the browser tests: 43 s alone on a quiet two-core machine, over 180 s beside them.
          hookTimeout: 600_000,
        },
      },
      // Three production builds behind HAProxy, through PgBouncer, sharing Redis and an S3 emulator (issue 31).
      {
        extends: true,
        test: {
          name: 'cluster',
          include: ['tests/cluster/**/*.test.ts'],
          exclude: ['tests/cluster/rolling-deploy.test.ts'],
          environment: 'node',
          testTimeout: 120_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
      // The previous release's build (built once into .cache/, minutes) beside this one on one database.
      {
        extends: true,
        test: {
          name: 'rolling',
          include: ['tests/cluster/rolling-deploy.test.ts'],
          environment: 'node',
          testTimeout: 120_000,
          hookTimeout: 900_000,
        },
      },
      // The browser tests: two files at a time (one per core) against the one served build, each with its own
      // browser; a file waiting on a page, a captcha or a server leaves the core to the other.
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          exclude: timingChecks,
          environment: 'node',
          globalSetup: ['tests/e2e/support/global-setup.ts'],
          testTimeout: 300_000,
          hookTimeout: 120_000,
          maxWorkers: 2,
          // After the other projects when one run names several: its worker count differs from theirs.
          sequence: { groupOrder: 1 },
        },
      },
      // Checks that hold the server to a time (event-loop stalls, a shutdown's drain): alone, one file at a time,
      // on a machine no other test loads. Each serves its own build, so no global server.
      {
        extends: true,
        test: {
          name: 'e2e-timing',
          include: timingChecks,
          environment: 'node',
          testTimeout: 300_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'bench',
          include: ['tests/bench/**/*.perf.ts'],
          environment: 'node',
          globalSetup: ['tests/e2e/support/global-setup.ts'],
          testTimeout: 600_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
})
