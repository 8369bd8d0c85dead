// The Firebase Auth emulator from the firebase-tools package: the embedded identity service of `npm start` and
// the tests. It runs offline; `CI` keeps the CLI from fetching its message of the day.
import { spawn } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { keepAccounts, restoreAccounts } from './auth-emulator-accounts.mjs'

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
 * With `accountsDir` its accounts are loaded from that folder before it is handed over and kept there while it
 * runs (auth-emulator-accounts.mjs), so a restart signs the same users in; without it, it starts empty.
 * @param {{ projectId: string, port?: number, quiet?: boolean, accountsDir?: string }} options
 * @returns {Promise<{ host: string, url: string, pid: number, restored: number, stop: () => Promise<void>, stopAtExit: () => void }>}
 */
export async function startAuthEmulator({ projectId, port, quiet = true, accountsDir }) {
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
  // firebase-tools loads slowly on a busy machine (over a minute at load 17 on two cores seen here).
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
  let kept
  let restored = 0
  if (accountsDir) {
    try {
      restored = await restoreAccounts({ url, projectId, dir: accountsDir })
    } catch (error) {
      child.kill('SIGKILL')
      throw new Error(`the Auth emulator could not load the accounts kept in ${accountsDir}: ${error.message}`)
    }
    kept = keepAccounts({ url, projectId, dir: accountsDir })
    // An emulator killed outright (a test's SIGKILL, a crash) would otherwise be asked for its accounts each
    // second for as long as this process lives.
    child.once('exit', () => kept.halt())
  }
  const exit = () =>
    new Promise((resolve) => {
      if (child.exitCode !== null) return resolve()
      child.once('exit', () => resolve())
      child.kill('SIGTERM')
      setTimeout(() => child.kill('SIGKILL'), 5000).unref()
    })
  // A last snapshot before it goes, where the caller can wait for one (a process exiting cannot).
  const stop = async () => {
    await kept?.stop().catch(() => undefined)
    await exit()
  }
  return { host, url, pid: child.pid, restored, stop, stopAtExit: () => void exit() }
}
