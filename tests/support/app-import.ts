import { beforeAll } from 'vitest'

/**
 * Integration files reach the app through its request handler (tests/support/api.ts), which imports the whole
 * route tree: once per worker (the imports are shared), in a hook with room for it, not in the first test's time.
 */
beforeAll(async () => {
  await import('~/server-handler')
}, 180_000)
