import { defineConfig } from 'vitest/config'
export default defineConfig({ test: { include: ['tests/e2e/event-loop.test.ts'], environment: 'node', testTimeout: 300_000, hookTimeout: 180_000 } })
