import { hostname } from 'node:os'
import postgres from 'postgres'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { describeWithService } from '../support/services'
import { serveBuild, type ServedBuild } from './support/server'

/**
 * Two production servers on one Postgres (issue 31): with the shared secrets set once for both they run
 * side by side; a second one left with per-process random secrets names them and exits.
 */
describeWithService('TEST_DATABASE_URL', 'instances sharing one Postgres', () => {
  const adminUrl = process.env.TEST_DATABASE_URL!
  const name = `instances_${process.pid}_${Date.now().toString(36)}`
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} })
  let databaseUrl = ''
  const running: ServedBuild[] = []
  const secrets = {
    CAPTCHA_SECRET: 'e2e-captcha-secret-0123456789',
    BULK_DOWNLOAD_SECRET: 'e2e-bulk-secret-0123456789',
    PAYMENTS_SANDBOX_SECRET: 'e2e-sandbox-secret-0123456789',
    KEY_ENCRYPTION_SECRET: 'e2e-key-encryption-secret-0123456789-0123',
  }

  beforeAll(async () => {
    await admin.unsafe(`create database "${name}"`)
    const url = new URL(adminUrl)
    url.pathname = `/${name}`
    databaseUrl = url.toString()
  })
  afterAll(async () => {
    await Promise.all(running.map((server) => server.stop({ forceAfterMs: 10_000 })))
    await admin.unsafe(`drop database if exists "${name}" with (force)`)
    await admin.end({ timeout: 5 })
  })

  const start = async (env: Record<string, string>) => {
    const server = await serveBuild({ DATABASE_URL: databaseUrl, REDIS_URL: '', LOG_LEVEL: 'info', ...env })
    running.push(server)
    return server
  }

  it('runs two instances with equal secrets, each logging its requests under its own name', async () => {
    const one = await start({ ...secrets, INSTANCE_ID: 'web-1' })
    const two = await start({ ...secrets, INSTANCE_ID: 'web-2' })
    for (const server of [one, two]) expect((await fetch(`${server.baseUrl}/healthz`)).status).toBe(200)
    const lines = (output: string) =>
      output
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as Record<string, unknown>)
    // The start-up probe's own /healthz lines come first, a 503 among them while the instance was still checking
    // in: the line wanted is the request above, logged once its answer is written.
    const answered = () =>
      lines(two.output()).filter((line) => line.msg === 'request' && line.path === '/healthz' && line.status === 200)
    await expect.poll(() => answered().length).toBeGreaterThan(0)
    expect(answered().at(-1)).toMatchObject({ instance: 'web-2', status: 200, method: 'GET' })
  })

  it('refuses a third one whose secrets are random per process, naming them', async () => {
    let exited: { code: number | null } | undefined
    let output = ''
    try {
      const third = await start({ INSTANCE_ID: 'web-3' })
      output = third.output()
      exited = await Promise.race([
        new Promise<{ code: number | null }>((resolve) =>
          third.child.exitCode !== null
            ? resolve({ code: third.child.exitCode })
            : third.child.once('exit', (code) => resolve({ code })),
        ),
        new Promise<undefined>((resolve) => setTimeout(resolve, 15_000)),
      ])
      output = third.output()
    } catch (error) {
      output = String(error)
      exited = { code: 1 }
    }
    expect(exited, output).toEqual({ code: 1 })
    expect(output).toContain('refusing to start')
    for (const variable of [
      'CAPTCHA_SECRET',
      'BULK_DOWNLOAD_SECRET',
      'KEY_ENCRYPTION_SECRET',
      'PAYMENTS_SANDBOX_SECRET',
    ])
      expect(output).toContain(variable)
  })
})

/**
 * A server killed without leaving (SIGKILL, a crash, the OOM killer) and restarted at once by its supervisor,
 * with the default per-process secrets: its predecessor's row is a second old, but the process is gone.
 */
describeWithService('TEST_DATABASE_URL', 'a restart after a crash', () => {
  const adminUrl = process.env.TEST_DATABASE_URL!
  const name = `restart_${process.pid}_${Date.now().toString(36)}`
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} })
  let database: ReturnType<typeof postgres> | undefined
  let databaseUrl = ''
  const running: ServedBuild[] = []

  beforeAll(async () => {
    await admin.unsafe(`create database "${name}"`)
    const url = new URL(adminUrl)
    url.pathname = `/${name}`
    databaseUrl = url.toString()
    database = postgres(databaseUrl, { max: 1, onnotice: () => {} })
  })
  afterAll(async () => {
    await Promise.all(running.map((server) => server.stop({ forceAfterMs: 10_000 })))
    await database?.end({ timeout: 5 })
    await admin.unsafe(`drop database if exists "${name}" with (force)`)
    await admin.end({ timeout: 5 })
  })

  const start = async () => {
    const server = await serveBuild({ DATABASE_URL: databaseUrl, REDIS_URL: '', LOG_LEVEL: 'info' })
    running.push(server)
    return server
  }
  /** Polls until the server of process `pid` is in app_instances, under its default name (host name and pid). */
  const checkedIn = (pid: number) =>
    expect
      .poll(
        async () =>
          (await database!`select count(*)::int as n from app_instances where id = ${`${hostname()}-${pid}`}`)[0].n,
        { timeout: 30_000 },
      )
      .toBe(1)

  it('serves at once, its predecessor killed with SIGKILL a moment before', async () => {
    const first = await start()
    await checkedIn(first.child.pid!)
    first.child.kill('SIGKILL')
    await new Promise((resolve) => first.child.once('exit', resolve))

    const second = await start()
    await checkedIn(second.child.pid!)
    expect((await fetch(`${second.baseUrl}/healthz`)).status).toBe(200)
    // Still serving a heartbeat later (a refused start exits within a second of checking in).
    await new Promise((resolve) => setTimeout(resolve, 3000))
    expect(second.child.exitCode, second.output()).toBeNull()
    expect(second.output()).not.toContain('refusing to start')
    expect((await fetch(`${second.baseUrl}/healthz`)).status).toBe(200)
  })
})
