import type { TestProject } from 'vitest/node'
import { startAuthEmulator } from '../../../local/auth-emulator.mjs'
import { serveBuild } from './server'
import { freePort } from '../../support/ports'

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string
    dataDir: string
    /** The Firebase Auth emulator the served build signs users in with, and its project. */
    authEmulator: { url: string; projectId: string }
  }
}

/** Serves the production build for the e2e and bench projects. */
export default async function setup(project: TestProject) {
  // The bench project measures the API without per-key limits and, when scripts/bench.mjs made one, on
  // real Postgres (PGlite serialises every query through one connection). e2e always runs on PGlite.
  const bench = project.name === 'bench'
  const benchEnv = bench ? { RATE_LIMIT_KEYS: 'off', DATABASE_URL: process.env.BENCH_DATABASE_URL ?? '' } : {}
  const projectId = 'demo-lodestar-e2e'
  // The emulator and the server start side by side (each mostly one core): the server needs only its address.
  const authPort = await freePort()
  const starting = startAuthEmulator({ projectId, port: authPort })
  // The benchmarks serve the build under an origin it was not built for (its own port on 127.0.0.1), as a
  // deployment of the same build elsewhere does: the speed figures hold for any origin, not only the build's.
  const port = bench ? await freePort() : 0
  const serving = serveBuild(
    {
      FIREBASE_PROJECT_ID: projectId,
      FIREBASE_AUTH_EMULATOR_HOST: `127.0.0.1:${authPort}`,
      // e2e: the origin the build prerendered for (the pages served as built); bench: another (served rebased).
      PUBLIC_BASE_URL: bench
        ? `http://127.0.0.1:${port}`
        : (process.env.E2E_PUBLIC_BASE_URL ?? 'http://localhost:3000'),
      USAGE_SERVICE_TOKEN: 'e2e-usage-service-token-0123456789',
      // The journeys create several trial keys from 127.0.0.1.
      RATE_LIMIT_TRIAL: '50/3600',
      // A tenth of the default proof of work: the same captcha round trip, solved in a tenth of a second instead
      // of about one, by the browser or by the tests, a few dozen times per run (bench keeps the default).
      ...(bench ? {} : { CAPTCHA_DIFFICULTY: '1000' }),
      // The reader demo reads pages of this server and loopback fixtures, which the address rule refuses otherwise.
      READER_ALLOW_PRIVATE_NETWORKS: 'true',
      DATABASE_URL: '',
      ...benchEnv,
    },
    { port },
  )
  const [emulator, server] = await Promise.allSettled([starting, serving])
  // Whichever started is stopped again if the other did not, so the run does not hang on it.
  if (emulator.status === 'rejected' || server.status === 'rejected') {
    if (emulator.status === 'fulfilled') await emulator.value.stop()
    if (server.status === 'fulfilled') await server.value.stop({ forceAfterMs: 15_000 })
    throw emulator.status === 'rejected' ? emulator.reason : (server as PromiseRejectedResult).reason
  }
  const [{ value: auth }, { value: served }] = [emulator, server]
  project.provide('baseUrl', served.baseUrl)
  project.provide('dataDir', served.dataDir)
  project.provide('authEmulator', { url: auth.url, projectId })
  return async () => {
    await served.stop({ forceAfterMs: 15_000 })
    await auth.stop()
  }
}
