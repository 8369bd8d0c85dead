import { readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { authEmulator, type AuthEmulator } from '../support/auth-emulator'
import { portOpen } from '../support/ports'

/**
 * The Auth emulator of `npm start` keeps its accounts in DATA_DIR across restarts (issue 38): the database keeps
 * the keys and balances of its users, so an emulator that forgot them left accounts nobody could sign in to,
 * and signing up again made a new, empty one.
 */
const accountsDir = `tests/.tmp/auth-emulator-accounts-${process.pid}`
const projectId = 'demo-lodestar-kept'
let running: AuthEmulator | undefined
afterAll(async () => {
  await running?.stop()
  rmSync(accountsDir, { recursive: true, force: true })
})

/** Starts the emulator as `npm start` does, on the same folder each time. */
const start = async () => (running = await authEmulator(projectId, undefined, { accountsDir }))

it(
  'signs the same user in after a restart, even one after a SIGKILL that skipped every exit step',
  { timeout: 300_000 },
  async () => {
    const first = await start()
    const { localId } = await first.signUp('kept@example.com', 'first-password-1')
    // Saved within a second of the sign-up, so a kill outright loses nothing older.
    const saved = () => readFileSync(join(accountsDir, 'auth_export', 'accounts.json'), 'utf8')
    await expect.poll(saved, { timeout: 5000 }).toContain('kept@example.com')
    const port = Number(new URL(first.url).port)
    process.kill(first.pid, 'SIGKILL')
    await expect.poll(() => portOpen(port), { timeout: 10_000 }).toBe(false)

    const second = await start()
    expect(second.restored).toBe(1)
    expect((await second.signIn('kept@example.com', 'first-password-1')).localId).toBe(localId)
    await expect(second.signIn('kept@example.com', 'wrong-password-1')).rejects.toThrow(
      /INVALID_PASSWORD|INVALID_LOGIN/,
    )

    // A clean stop saves what the last second added before the emulator goes.
    await second.signUp('later@example.com', 'later-password-1')
    await second.stop()
    expect(saved()).toContain('later@example.com')
  },
)
