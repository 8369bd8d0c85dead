import { fileURLToPath } from 'node:url'
import babel from '@rolldown/plugin-babel'
import { lingui } from '@lingui/vite-plugin'
import { defineConfig } from 'vitest/config'

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url))

/** Benchmarks run through vitest only for its TypeScript and path aliases: `vitest run --config tests/bench/vitest.config.ts`. */
export default defineConfig({
  // The ledger reaches the content (alert mail → app.config → content), whose messages are Lingui macros.
  plugins: [babel({ plugins: ['@lingui/babel-plugin-lingui-macro'] }), lingui()],
  resolve: {
    alias: { '~': here('../../app'), '#content': here('../../content'), '#config': here('../../app.config.ts') },
  },
  test: {
    include: ['tests/bench/**/*.bench.ts'],
    root: here('../..'),
    testTimeout: 600_000,
    hookTimeout: 120_000,
    fileParallelism: false,
  },
})
