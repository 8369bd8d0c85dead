import { spawn, type ChildProcess } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll } from 'vitest'
import { freePort } from '../../support/ports'
import { later } from './later'

// Three minutes: PGlite's first migrations on a loaded two-core machine (parallel suites) have taken over one.
async function waitForHealth(url: string, child: ChildProcess, timeoutMs = 180_000) {
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

/**
 * A PGlite directory the served build has migrated, made once per build (named by `.output/source-hash`) and
 * copied into each new server's data directory: migrating a fresh PGlite was half of a server's start (4 of its
 * 8 s of CPU), and an e2e run starts over a dozen servers. The servers still apply any migration it lacks.
 */
async function migratedPglite(entry: string): Promise<string | undefined> {
  const hashFile = join(process.cwd(), '.output/source-hash')
  if (!existsSync(hashFile)) return undefined
  const cache = join(process.cwd(), 'node_modules/.cache/e2e-pglite')
  const template = join(cache, readFileSync(hashFile, 'utf8').trim().slice(0, 16))
  if (existsSync(join(template, 'pglite'))) return template
  mkdirSync(cache, { recursive: true })
  // Made aside and renamed into place, so a server never copies half a template; the last build's goes.
  const making = mkdtempSync(join(cache, 'making-'))
  const port = await freePort()
  const child = spawn(process.execPath, [entry], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: making, DATABASE_URL: '' },
    stdio: 'ignore',
  })
  const exited = new Promise((resolve) => child.once('exit', resolve))
  try {
    await waitForHealth(`http://127.0.0.1:${port}`, child)
  } finally {
    // A clean stop closes PGlite, so what is copied is a database at rest.
    child.kill('SIGTERM')
    await exited
  }
  for (const old of readdirSync(cache))
    if (!template.endsWith(old) && !old.startsWith('making-'))
      rmSync(join(cache, old), { recursive: true, force: true })
  try {
    renameSync(making, template)
  } catch {
    rmSync(making, { recursive: true, force: true }) // another worker made it first
  }
  return template
}

export interface ServedBuild {
  baseUrl: string
  dataDir: string
  child: ChildProcess
  /** Everything the server printed so far. */
  output(): string
  /** SIGTERM (SIGKILL after `forceAfterMs`), then the exit code or signal; removes the data directory. */
  stop(options?: { forceAfterMs?: number }): Promise<{ code: number | null; signal: NodeJS.Signals | null }>
}

/**
 * Serves the production build (npm test builds it first) on a free port (or `port`, for a server that must
 * know its own address, as links it signs do) with its own data directory; `entry`: another build's server
 * (the rolling-deploy test runs the previous release's).
 */
export async function serveBuild(
  env: Record<string, string | undefined>,
  { port = 0, entry = join(process.cwd(), '.output/server/index.mjs') }: { port?: number; entry?: string } = {},
): Promise<ServedBuild> {
  if (!existsSync(entry)) throw new Error('No build found: run `npm run build` before the e2e tests')
  port ||= await freePort()
  const baseUrl = `http://127.0.0.1:${port}`
  const dataDir = mkdtempSync(join(tmpdir(), 'e2e-data-'))
  const embedded = !{ ...process.env, ...env }.DATABASE_URL
  const template = embedded ? await migratedPglite(entry) : undefined
  if (template) cpSync(join(template, 'pglite'), join(dataDir, 'pglite'), { recursive: true })
  const child = spawn(process.execPath, [entry], {
    // The test-mode payment sandbox, as npm start runs it, unless `env` says otherwise.
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, PAYMENTS_SANDBOX: 'on', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout!.on('data', (chunk) => (output += chunk))
  child.stderr!.on('data', (chunk) => (output += chunk))
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  )
  try {
    await waitForHealth(baseUrl, child)
  } catch (error) {
    child.kill('SIGKILL')
    rmSync(dataDir, { recursive: true, force: true })
    throw new Error(`${(error as Error).message}\n${output}`)
  }
  return {
    baseUrl,
    dataDir,
    child,
    output: () => output,
    async stop({ forceAfterMs } = {}) {
      child.kill('SIGTERM')
      const force = forceAfterMs ? setTimeout(() => child.kill('SIGKILL'), forceAfterMs) : undefined
      const result = await exited
      clearTimeout(force)
      rmSync(dataDir, { recursive: true, force: true })
      return result
    },
  }
}

/**
 * A served build whose public address is its real one (its own port on 127.0.0.1), for pages that link to
 * themselves: the sandbox's checkout page, signed download links. `env` adds to or overrides the defaults.
 */
export async function serveAtOwnOrigin(env: Record<string, string | undefined> = {}): Promise<ServedBuild> {
  const port = await freePort()
  const origin = `http://127.0.0.1:${port}`
  return serveBuild({ PUBLIC_BASE_URL: origin, PUBLIC_API_BASE_URL: origin, DATABASE_URL: '', ...env }, { port })
}

/** How a file's server starts: serveAtOwnOrigin with these settings, or a function that starts it. */
export type ServerStart = Record<string, string | undefined> | (() => Promise<ServedBuild>)

/**
 * The served build of a file (or of a describe block), and its one line of setup: started before its tests,
 * stopped after them (SIGKILL after `forceAfterMs` if it will not stop). Use it inside tests and later hooks.
 */
export function useServer(start: ServerStart = {}, { forceAfterMs = 15_000 } = {}): ServedBuild {
  const server = later<ServedBuild>('the served build')
  let started: ServedBuild | undefined
  beforeAll(async () => {
    started = await (typeof start === 'function' ? start() : serveAtOwnOrigin(start))
    server.set(started)
  })
  afterAll(() => started?.stop({ forceAfterMs }))
  return server.value
}
