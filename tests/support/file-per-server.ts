import { afterAll } from 'vitest'
import { shutdown } from '~/server/lifecycle'

/**
 * The unit and integration files share their worker's modules (`isolate: false`: importing the app once per worker
 * rather than once per file took about as long as the tests themselves). Each file still starts as a fresh
 * server would: with the environment the worker started with, whatever an earlier file set, and it ends as a
 * server stops, so the pools, workers and connections it started (sized by its settings) do not serve the next.
 */
const key = Symbol.for('search-foundation-site.tests.pristine-env')
const pristine = ((globalThis as Record<symbol, unknown>)[key] ??= { ...process.env }) as NodeJS.ProcessEnv

function restoreEnvironment() {
  for (const name of Object.keys(process.env)) if (!(name in pristine)) delete process.env[name]
  Object.assign(process.env, pristine)
}

restoreEnvironment()
afterAll(async () => {
  await shutdown()
  restoreEnvironment()
})
