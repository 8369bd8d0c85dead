// The Firebase Auth emulator from the firebase-tools package: the embedded identity service of `npm start` and
// the tests. It runs offline; `CI` keeps the CLI from fetching its message of the day.
import { spawn } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const require = createRequire(import.meta.url)

/** A port nothing listens on now (the emulator's hub and logging ports must not collide with another run's). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address()
      server.close(() => resolve(port))
    })
  })
}

/**
 * Starts the emulator for `projectId` (a `demo-` id: it never reaches a real project) and waits until it answers.
 * @param {{ projectId: string, port?: number, quiet?: boolean }} options
 * @returns {Promise<{ host: string, url: string, stop: () => Promise<void> }>}
 */
export async function startAuthEmulator({ projectId, port, quiet = true }) {
  const authPort = port ?? (await freePort())
  const [hubPort, loggingPort] = [await freePort(), await freePort()]
  const dir = mkdtempSync(join(tmpdir(), 'auth-emulator-'))
  writeFileSync(
    join(dir, 'firebase.json'),
    JSON.stringify({
      emulators: {
        auth: { host: '127.0.0.1', port: authPort },
        hub: { host: '127.0.0.1', port: hubPort },
        logging: { host: '127.0.0.1', port: loggingPort },
        ui: { enabled: false },
        singleProjectMode: true,
      },
    }),
  )
  const cli = require.resolve('firebase-tools/lib/bin/firebase.js')
  const child = spawn(process.execPath, [cli, 'emulators:start', '--only', 'auth', '--project', projectId], {
    cwd: dir,
    env: { ...process.env, CI: 'true', NO_UPDATE_NOTIFIER: '1', FIREBASE_CLI_DISABLE_UPDATE_CHECK: 'true' },
    stdio: ['ignore', quiet ? 'pipe' : 'inherit', quiet ? 'pipe' : 'inherit'],
  })
  let output = ''
  child.stdout?.on('data', (chunk) => (output += chunk))
  child.stderr?.on('data', (chunk) => (output += chunk))
  const host = `127.0.0.1:${authPort}`
  const url = `http://${host}`
  // Three minutes: on a loaded two-core machine (parallel suites) its start has taken over a minute.
  const deadline = Date.now() + 180_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the Auth emulator exited (${child.exitCode}):\n${output}`)
    const ready = await fetch(url)
      .then((response) => response.ok)
      .catch(() => false)
    if (ready) break
    if (Date.now() > deadline) {
      child.kill('SIGKILL')
      throw new Error(`the Auth emulator did not start within 180 s:\n${output}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  const stop = () =>
    new Promise((resolve) => {
      if (child.exitCode !== null) return resolve()
      child.once('exit', () => resolve())
      child.kill('SIGTERM')
      setTimeout(() => child.kill('SIGKILL'), 5000).unref()
    })
  return { host, url, stop }
}
