import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { rmSync } from 'node:fs'
import { sql } from 'drizzle-orm'
import { afterAll, describe, expect, it } from 'vitest'
import { joinInstances, sharedSecretFingerprints, SharedSecretsDiffer } from '~/server/api/instances'
import { parseEnv } from '~/server/env'
import { processPlace } from '~/server/providers/process-place'
import { scalar, apiDatabase } from '../support/api'

/** Two server processes on one database, as `app_instances` sees them: their shared secrets must agree. */
const database = apiDatabase()
afterAll(() => {
  for (const dir of ['tests/.tmp/instances', 'tests/.tmp/instances-e']) rmSync(dir, { recursive: true, force: true })
})

const shared = {
  CAPTCHA_SECRET: 'captcha-secret-0123456789',
  BULK_DOWNLOAD_SECRET: 'bulk-secret-0123456789',
  PAYMENTS_SANDBOX: 'on',
  PAYMENTS_SANDBOX_SECRET: 'sandbox-secret-0123456789',
  KEY_ENCRYPTION_SECRET: 'key-encryption-secret-0123456789-0123456789',
  DATA_DIR: 'tests/.tmp/instances',
}
const fingerprints = (id: string, env: Record<string, string | undefined>) =>
  sharedSecretFingerprints(parseEnv(env), id)
const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => (error instanceof SharedSecretsDiffer ? error.names : error),
  )

describe('instances sharing a database', () => {
  it('lets a second instance join when every shared secret is equal, and forgets one that left', async () => {
    const a = await joinInstances(database.db, 'a', await fingerprints('a', shared))
    const b = await joinInstances(database.db, 'b', await fingerprints('b', shared))
    expect(await scalar(database.db, sql`select count(*) from app_instances`)).toBe(2)
    await Promise.all([a.leave(), b.leave()])
    expect(await scalar(database.db, sql`select count(*) from app_instances`)).toBe(0)
  })

  it('refuses an instance whose secrets are random per process while another is live, naming the variables', async () => {
    const a = await joinInstances(database.db, 'a', await fingerprints('a', shared))
    const defaults = { PAYMENTS_SANDBOX: 'on', DATA_DIR: shared.DATA_DIR }
    expect(await refusal(joinInstances(database.db, 'c', await fingerprints('c', defaults)))).toEqual([
      'BULK_DOWNLOAD_SECRET',
      'CAPTCHA_SECRET',
      'KEY_ENCRYPTION_SECRET',
      'PAYMENTS_SANDBOX_SECRET',
    ])
    // One secret set to another value is refused too.
    const other = { ...shared, CAPTCHA_SECRET: 'another-captcha-secret-0123' }
    expect(await refusal(joinInstances(database.db, 'd', await fingerprints('d', other)))).toEqual(['CAPTCHA_SECRET'])
    await a.leave()
    // Alone, the same process starts: its random secrets are nobody else's problem.
    const alone = await joinInstances(database.db, 'c', await fingerprints('c', defaults))
    await alone.leave()
  })

  it('ignores an instance not heard from in the last 30 seconds (killed without leaving)', async () => {
    await joinInstances(database.db, 'gone', await fingerprints('gone', shared))
    await database.db.execute(sql`update app_instances set seen_at = now() - interval '31 seconds' where id = 'gone'`)
    const fresh = await joinInstances(database.db, 'e', await fingerprints('e', { DATA_DIR: 'tests/.tmp/instances-e' }))
    await fresh.leave()
  })

  it('starts a server at once after its predecessor on this machine crashed, and still refuses a live one', async () => {
    const defaults = { PAYMENTS_SANDBOX: 'on', DATA_DIR: shared.DATA_DIR }
    // The predecessor: a process of this machine that joined and was then killed without leaving (SIGKILL).
    const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' })
    const exited = once(child, 'exit')
    try {
      await once(child, 'spawn')
      const crashed = processPlace(child.pid!)
      await joinInstances(database.db, 'crashed', await fingerprints('crashed', shared), crashed)
      // While it runs, a server with other (per-process random) secrets is refused, as before.
      expect(await refusal(joinInstances(database.db, 'next', await fingerprints('next', defaults)))).toContain(
        'CAPTCHA_SECRET',
      )
    } finally {
      child.kill('SIGKILL')
      await exited
    }
    // Killed: its heartbeat is a second old, but its pid runs nothing; the next server starts without waiting.
    const next = await joinInstances(database.db, 'next', await fingerprints('next', defaults))
    expect(await scalar(database.db, sql`select count(*) from app_instances where id = 'crashed'`)).toBe(0)
    await next.leave()
  })

  it('counts a live row of another machine, and a reused pid is not its process', async () => {
    const defaults = { PAYMENTS_SANDBOX: 'on', DATA_DIR: shared.DATA_DIR }
    // Another machine's process (its pid means nothing here) is live until its heartbeat is 30 s old.
    const elsewhere = { pid: 999_999, scope: 'host:another-machine', started: null }
    const remote = await joinInstances(database.db, 'remote', await fingerprints('remote', shared), elsewhere)
    expect(await refusal(joinInstances(database.db, 'next', await fingerprints('next', defaults)))).toContain(
      'CAPTCHA_SECRET',
    )
    await remote.leave()
    // A row naming a running pid of this machine that started at another time: the pid was reused, its process is gone.
    const reused = { ...processPlace(process.pid), started: '1' }
    await joinInstances(database.db, 'reused', await fingerprints('reused', shared), reused)
    const next = await joinInstances(database.db, 'next', await fingerprints('next', defaults))
    await next.leave()
  })

  it('keeps the data folder key equal for instances sharing DATA_DIR when KEY_ENCRYPTION_SECRET is unset', async () => {
    const env = { DATA_DIR: shared.DATA_DIR }
    expect((await fingerprints('x', env)).KEY_ENCRYPTION_SECRET).toBe(
      (await fingerprints('y', env)).KEY_ENCRYPTION_SECRET,
    )
  })
})
