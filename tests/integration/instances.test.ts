import { rmSync } from 'node:fs'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { joinInstances, sharedSecretFingerprints, SharedSecretsDiffer } from '~/server/api/instances'
import { parseEnv } from '~/server/env'
import { scalar, setupApi } from '../support/api'

/** Two server processes on one database, as `app_instances` sees them: their shared secrets must agree. */
let database: Awaited<ReturnType<typeof setupApi>>
beforeAll(async () => {
  database = await setupApi()
})
afterAll(async () => {
  await database.close()
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

  it('keeps the data folder key equal for instances sharing DATA_DIR when KEY_ENCRYPTION_SECRET is unset', async () => {
    const env = { DATA_DIR: shared.DATA_DIR }
    expect((await fingerprints('x', env)).KEY_ENCRYPTION_SECRET).toBe(
      (await fingerprints('y', env)).KEY_ENCRYPTION_SECRET,
    )
  })
})
