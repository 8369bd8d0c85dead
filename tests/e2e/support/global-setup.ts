import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { TestProject } from 'vitest/node'

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string
    dataDir: string
  }
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}

async function waitForHealth(url: string, child: ChildProcess, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`)
    try {
      const response = await fetch(`${url}/healthz`)
      if (response.ok) return
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250))
  }
  throw new Error('server did not become healthy')
}

/** Serves the production build (npm test builds it first) on a free port with its own data directory. */
export default async function setup(project: TestProject) {
  const entry = join(process.cwd(), '.output/server/index.mjs')
  if (!existsSync(entry)) throw new Error('No build found: run `npm run build` before the e2e tests')
  const port = await freePort()
  const baseUrl = `http://127.0.0.1:${port}`
  const dataDir = mkdtempSync(join(tmpdir(), 'e2e-data-'))
  // The bench project measures the API without per-key limits and, when scripts/bench.mjs made one, on
  // real Postgres (PGlite serialises every query through one connection). e2e always runs on PGlite.
  const bench = project.name === 'bench'
  const benchEnv = bench ? { RATE_LIMIT_KEYS: 'off', DATABASE_URL: process.env.BENCH_DATABASE_URL ?? '' } : {}
  const child = spawn(process.execPath, [entry], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      // The origin the build prerendered for, so the prerendered pages are what the browser gets.
      PUBLIC_BASE_URL: process.env.E2E_PUBLIC_BASE_URL ?? 'http://localhost:3000',
      USAGE_SERVICE_TOKEN: 'e2e-usage-service-token-0123456789',
      // The journeys create several trial keys from 127.0.0.1.
      RATE_LIMIT_TRIAL: '50/3600',
      DATABASE_URL: '',
      ...benchEnv,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout!.on('data', (chunk) => (output += chunk))
  child.stderr!.on('data', (chunk) => (output += chunk))
  try {
    await waitForHealth(baseUrl, child)
  } catch (error) {
    child.kill()
    throw new Error(`${(error as Error).message}\n${output}`)
  }
  project.provide('baseUrl', baseUrl)
  project.provide('dataDir', dataDir)
  return async () => {
    const exited = new Promise((r) => child.once('exit', r))
    child.kill('SIGTERM')
    // On Postgres the pool's open sockets keep the server alive after it closes: the bench ends it.
    const force = bench ? setTimeout(() => child.kill('SIGKILL'), 8_000) : undefined
    await exited
    clearTimeout(force)
    rmSync(dataDir, { recursive: true, force: true })
  }
}
