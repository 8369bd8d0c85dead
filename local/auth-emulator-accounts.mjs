// The Auth emulator's accounts kept on disk across restarts. The emulator holds them in memory only; the
// database keeps their keys and balances, so an account it forgot is a key nobody can sign in to. The folder is
// in the layout of `firebase emulators:export` (so `firebase emulators:start --import` reads it too), written
// through the same REST calls the CLI's export and import make.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

const owner = { authorization: 'Bearer owner', 'content-type': 'application/json' }

/** The folder's files: the CLI's metadata, and the accounts and project settings of the default tenant. */
const files = (dir) => ({
  metadata: join(dir, 'firebase-export-metadata.json'),
  accounts: join(dir, 'auth_export', 'accounts.json'),
  config: join(dir, 'auth_export', 'config.json'),
})

async function call(url, path, init = {}) {
  const response = await fetch(`${url}${path}`, { ...init, headers: owner })
  const text = await response.text()
  if (!response.ok) throw new Error(`Auth emulator ${init.method ?? 'GET'} ${path}: ${response.status} ${text}`)
  return text
}

/**
 * Loads the accounts kept in `dir` into a freshly started emulator (nothing when there are none yet). Done
 * before the emulator is handed to anyone, unlike the CLI's `--import`, which runs after it already answers.
 * @param {{ url: string, projectId: string, dir: string }} options
 * @returns {Promise<number>} the accounts restored
 */
export async function restoreAccounts({ url, projectId, dir }) {
  const { accounts, config } = files(dir)
  if (existsSync(config)) {
    const body = readFileSync(config, 'utf8')
    await call(url, `/emulator/v1/projects/${projectId}/config`, { method: 'PATCH', body })
  }
  if (!existsSync(accounts)) return 0
  const body = readFileSync(accounts, 'utf8')
  const users = JSON.parse(body).users ?? []
  if (users.length === 0) return 0
  await call(url, `/identitytoolkit.googleapis.com/v1/projects/${projectId}/accounts:batchCreate`, {
    method: 'POST',
    body,
  })
  return users.length
}

/** Writes `text` to `path` whole or not at all: a crash mid-write leaves the previous file, never half of one. */
function writeWhole(dir, path, text) {
  const partial = join(dir, `.${Date.now().toString(36)}.partial`)
  writeFileSync(partial, text)
  renameSync(partial, path)
}

/**
 * Keeps `dir` up to date with the emulator's accounts: read every `everyMs` (a loopback call of a few
 * milliseconds) and written only when they changed. Polling rather than exporting on exit: a SIGKILL or a
 * crash skips any exit step, and this loses at most `everyMs` of sign-ups. `stop` writes once more.
 * @param {{ url: string, projectId: string, dir: string, everyMs?: number }} options
 * @returns {{ snapshot: () => Promise<void>, stop: () => Promise<void> }}
 */
export function keepAccounts({ url, projectId, dir, everyMs = 1000 }) {
  const paths = files(dir)
  mkdirSync(join(dir, 'auth_export'), { recursive: true })
  if (!existsSync(paths.metadata))
    writeWhole(
      dir,
      paths.metadata,
      JSON.stringify({ version: 'lodestar', auth: { version: 'lodestar', path: 'auth_export' } }),
    )
  const written = {
    accounts: existsSync(paths.accounts) ? readFileSync(paths.accounts, 'utf8') : undefined,
    config: existsSync(paths.config) ? readFileSync(paths.config, 'utf8') : undefined,
  }
  let running = Promise.resolve()
  const snapshot = () =>
    (running = running
      .catch(() => undefined)
      .then(async () => {
        const [accounts, config] = await Promise.all([
          call(url, `/identitytoolkit.googleapis.com/v1/projects/${projectId}/accounts:batchGet?maxResults=-1`),
          call(url, `/emulator/v1/projects/${projectId}/config`),
        ])
        for (const [name, text] of Object.entries({ accounts, config })) {
          if (text === written[name]) continue
          writeWhole(dir, paths[name], text)
          written[name] = text
        }
      }))
  let failures = 0
  const timer = setInterval(() => {
    snapshot().then(
      () => (failures = 0),
      (error) => {
        // One line when it starts failing (the emulator gone), not one a second.
        if (failures++ === 0) console.error(`[auth-emulator] could not save its accounts: ${error.message}`)
      },
    )
  }, everyMs)
  timer.unref()
  return {
    snapshot,
    async stop() {
      clearInterval(timer)
      await snapshot()
    },
    /** Stops saving without a last snapshot: the emulator is gone (killed), so there is nothing to read. */
    halt: () => clearInterval(timer),
  }
}
