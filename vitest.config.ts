import { defineConfig } from 'vitest/config'
import babel from '@rolldown/plugin-babel'
import { lingui } from '@lingui/vite-plugin'
import { fileURLToPath } from 'node:url'
import { threadSource } from './build/vite-thread-source.ts'

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url))

export default defineConfig({
  plugins: [
    babel({ plugins: ['@lingui/babel-plugin-lingui-macro'] }),
    lingui(),
    threadSource({ alias: { '~': here('./app') } }),
  ],
  resolve: { alias: { '~': here('./app'), '#content': here('./content'), '#config': here('./app.config.ts') } },
  test: {
    // In-process API tests refuse on purpose by the hundred; their info lines would bury real failures.
    env: { LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' },
    projects: [
      { extends: true, test: { name: 'unit', include: ['tests/unit/**/*.test.{ts,tsx}'], environment: 'node' } },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['tests/integration/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      // Builds the client with a deliberate leak and expects the import protection to stop it (seconds each).
      {
        extends: true,
        test: { name: 'build', include: ['tests/build/**/*.test.ts'], environment: 'node', testTimeout: 120_000 },
      },
      // Builds the Cloudflare Worker (npm run build:edge) and runs it in workerd against the local Postgres.
      {
        extends: true,
        test: {
          name: 'edge',
          include: ['tests/edge/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 180_000,
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
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['tests/e2e/support/global-setup.ts'],
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
