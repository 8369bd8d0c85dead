// `npm start`: builds when there is no build or the sources changed since it was made (a hash of their
// content, recorded by the build), then serves the build with Node. The build's own output (hundreds of
// prerender lines, bundler reports) is kept back and shown only if the build fails.
import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { recordedHashFile, sourceHash } from '../build/source-hash.mjs'
import { sandboxByDefault } from '../local/payments-default.mjs'

const entry = new URL('../.output/server/index.mjs', import.meta.url)
const why = !existsSync(entry)
  ? 'no build found'
  : process.env.REBUILD === 'true'
    ? 'REBUILD=true'
    : !existsSync(recordedHashFile) || readFileSync(recordedHashFile, 'utf8') !== sourceHash()
      ? 'the sources changed since the last build'
      : undefined
if (why) {
  console.log(`[start] ${why}: building the site (a minute or two)…`)
  const started = Date.now()
  const build = spawnSync('npm', ['run', '--silent', 'build'], {
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
    shell: process.platform === 'win32',
  })
  if (build.status !== 0) {
    process.stdout.write(build.stdout ?? '')
    process.stderr.write(build.stderr ?? '')
    console.error(`[start] the build failed${build.error ? `: ${build.error.message}` : ''} (its output is above)`)
    process.exit(build.status ?? 1)
  }
  const pages = build.stdout.match(/\[prerendered-pages\] (\d+) prerendered pages/)?.[1]
  const seconds = Math.round((Date.now() - started) / 1000)
  console.log(`[start] built in ${seconds} s${pages ? `, ${pages} pages prerendered` : ''}`)
}
// Sign-in: with no Firebase project configured, the Auth emulator stands in for it (offline, a demo- project).
if (!process.env.FIREBASE_PROJECT_ID) {
  const { startAuthEmulator } = await import('../local/auth-emulator.mjs')
  const { join } = await import('node:path')
  const projectId = 'demo-lodestar'
  // Its accounts live beside the database that holds their keys, so both survive a restart.
  const accountsDir = join(process.env.DATA_DIR || '.data', 'auth-emulator')
  const emulator = await startAuthEmulator({ projectId, port: await preferredPort(9099), accountsDir })
  Object.assign(process.env, { FIREBASE_PROJECT_ID: projectId, FIREBASE_AUTH_EMULATOR_HOST: emulator.host })
  console.log(
    `[start] sign-in: Firebase Auth emulator at ${emulator.url} (project ${projectId}), ` +
      `${emulator.restored} account${emulator.restored === 1 ? '' : 's'} kept in ${accountsDir}; ` +
      `its e-mails (verification and reset codes) are shown on the sign-in page and listed at ` +
      `${emulator.url}/emulator/v1/projects/${projectId}/oobCodes`,
  )
  // Whatever ends the server (its own shutdown on SIGTERM, a crash) ends the emulator with it; its accounts were
  // saved within the last second.
  process.once('exit', () => emulator.stopAtExit())
}

// Payments: without Stripe's keys, the test-mode sandbox on a local server, none on a public one.
const sandbox = sandboxByDefault(process.env)
if (sandbox) {
  process.env.PAYMENTS_SANDBOX = sandbox
  console.log(
    sandbox === 'on'
      ? '[start] payments: the built-in sandbox (test mode: Stripe test cards buy real tokens on this server)'
      : '[start] payments: off (no STRIPE_* keys, and a public PUBLIC_BASE_URL; PAYMENTS_SANDBOX=on runs the sandbox)',
  )
}

/** The emulator's usual port when it is free, else any free one. */
async function preferredPort(port) {
  const { createServer } = await import('node:net')
  const free = await new Promise((resolve) => {
    const probe = createServer()
    probe.once('error', () => resolve(false))
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)))
  })
  return free ? port : undefined
}

const origin = process.env.PUBLIC_BASE_URL || `http://localhost:${process.env.PORT || 3000}`
console.log(`[start] serving the site, dashboard and APIs at ${origin}`)
await import(entry.href)
