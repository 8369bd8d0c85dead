import { randomUUID } from 'node:crypto'
import { Agent, request } from 'node:http'
import postgres from 'postgres'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { describeWithService } from '../support/services'
import { serveBuild } from './support/server'

/**
 * What an operator sees on `docker stop` or a rolling deploy: on SIGTERM the server stops accepting,
 * closes its database pool and exits by itself, well before the orchestrator's kill. With Postgres the
 * pool's open sockets used to keep it alive, so this runs on Postgres when there is one.
 */
const adminUrl = process.env.TEST_DATABASE_URL
const name = `shutdown_${process.pid}_${Date.now().toString(36)}`
const admin = adminUrl ? postgres(adminUrl, { max: 1, onnotice: () => {} }) : undefined
let databaseUrl = ''
/**
 * The servers here share one database one after another; with per-process random secrets a server would be
 * refused while the previous one's row in app_instances still looks live (it leaves on a clean stop, but a
 * stop this test forces does not), which is not what these tests are about.
 */
const secrets = {
  CAPTCHA_SECRET: 'shutdown-captcha-secret-0123456789',
  BULK_DOWNLOAD_SECRET: 'shutdown-bulk-secret-0123456789',
  PAYMENTS_SANDBOX_SECRET: 'shutdown-sandbox-secret-0123456789',
  KEY_ENCRYPTION_SECRET: 'shutdown-key-encryption-secret-0123456789-0123',
}

beforeAll(async () => {
  if (!admin || !adminUrl) return
  await admin.unsafe(`create database "${name}"`)
  const url = new URL(adminUrl)
  url.pathname = `/${name}`
  databaseUrl = url.toString()
})
afterAll(async () => {
  await admin?.unsafe(`drop database if exists "${name}" with (force)`)
  await admin?.end({ timeout: 5 })
})

/** A key with plenty of tokens for the load, bought through the ledger of the database the server migrated. */
async function fundedKey(db: postgres.Sql): Promise<string> {
  const [{ id }] = await db<{ id: string }[]>`
    insert into api_keys (key_hash, prefix, last4) values (${randomUUID()}, 'sk-', 'test') returning id`
  const purchase = { key_id: id, amount: 1_000_000, type: 'purchase', external_ref: `purchase:${randomUUID()}` }
  await db`select * from ledger_apply_v2(${db.json([purchase])}, ${db.json({})})`
  return id
}

describe('stopping the server', () => {
  it('exits by itself on SIGTERM once it has served requests', async () => {
    // CI and TEST turn the server's graceful shutdown off; this test is about that path.
    const server = await serveBuild({
      ...secrets,
      DATABASE_URL: databaseUrl,
      CI: '',
      TEST: '',
      REDIS_URL: process.env.TEST_REDIS_URL ?? '',
    })
    try {
      // The health check opened the pool; a rate-limited call opens the Redis client when there is one.
      expect((await fetch(`${server.baseUrl}/healthz`)).status).toBe(200)
      const form = new FormData()
      form.set('captcha', 'not-a-solution')
      const refused = await fetch(`${server.baseUrl}/api/v1/api_key/empty`, { method: 'POST', body: form })
      expect(refused.status, await refused.text()).toBeGreaterThanOrEqual(400)
    } catch (error) {
      await server.stop({ forceAfterMs: 1 })
      throw error
    }
    const started = Date.now()
    const { code, signal } = await server.stop({ forceAfterMs: 20_000 })
    expect({ code, signal }, server.output()).toEqual({ code: 0, signal: null })
    expect(Date.now() - started).toBeLessThan(10_000)
    expect(server.output()).toContain('Server closed successfully')
  }, 60_000)
})

interface Metered {
  id: string
  /** performance.now() when the answer (or the failure) came. */
  at: number
  status?: number
  connection?: string
  /** The socket failed instead: refused (never reached the server) or cut (reached it, no answer). */
  failure?: string
}

/** One metering request on a keep-alive agent, as a search service sends them. */
function meter(agent: Agent, baseUrl: string, keyId: string, token: string): Promise<Metered> {
  const id = randomUUID()
  const body = JSON.stringify({ key_id: keyId, product: 'reader', tokens: 1, usage_event_id: id })
  return new Promise((resolve) => {
    const req = request(
      `${baseUrl}/internal/v1/usage`,
      {
        method: 'POST',
        agent,
        headers: {
          'content-type': 'application/json',
          authorization: `Bearer ${token}`,
          'content-length': body.length,
        },
      },
      (res) => {
        res.resume()
        res.on('end', () =>
          resolve({ id, at: performance.now(), status: res.statusCode, connection: res.headers.connection }),
        )
        res.on('error', (error: NodeJS.ErrnoException) => resolve({ id, at: performance.now(), failure: error.code }))
      },
    )
    req.on('error', (error: NodeJS.ErrnoException) =>
      resolve({ id, at: performance.now(), failure: error.code ?? error.message }),
    )
    req.end(body)
  })
}

describeWithService('TEST_DATABASE_URL', 'stopping the server under keep-alive load', () => {
  it('answers every request it committed, closing keep-alive connections, and exits without forcing', async () => {
    const token = 'shutdown-usage-service-token-0123456789'
    const server = await serveBuild({
      ...secrets,
      DATABASE_URL: databaseUrl,
      CI: '',
      TEST: '',
      USAGE_SERVICE_TOKEN: token,
      SERVER_SHUTDOWN_TIMEOUT: '8',
    })
    const db = postgres(databaseUrl, { max: 1, onnotice: () => {} })
    try {
      const keyId = await fundedKey(db)

      const agent = new Agent({ keepAlive: true, maxSockets: 8 })
      const sent: Metered[] = []
      let signalledAt = Infinity
      const workers = Array.from({ length: 8 }, async () => {
        for (;;) {
          const answer = await meter(agent, server.baseUrl, keyId, token)
          sent.push(answer)
          if (answer.failure === 'ECONNREFUSED' || server.child.exitCode !== null || server.child.signalCode) return
        }
      })
      await new Promise((r) => setTimeout(r, 1_500))
      signalledAt = performance.now()
      const stopped = server.stop({ forceAfterMs: 30_000 })
      await Promise.all(workers)
      const { code, signal } = await stopped
      const took = performance.now() - signalledAt
      agent.destroy()

      expect({ code, signal }, server.output()).toEqual({ code: 0, signal: null })
      expect(server.output()).toContain('Server closed successfully')
      expect(server.output()).not.toMatch(/timed out|Forcibly/)
      expect(took, 'drained well inside the 8 s grace period').toBeLessThan(5_000)

      const answered = sent.filter((m) => m.status !== undefined)
      expect(answered.length).toBeGreaterThan(20)
      expect(answered.filter((m) => m.status !== 200).map((m) => m.status)).toEqual([])
      // Answers that left well after the signal close their connection. (Whether any request is still in
      // flight by then depends on the machine's load; draining without force above is what proves the fix.)
      const late = answered.filter((m) => m.at > signalledAt + 500)
      expect(late.filter((m) => m.connection !== 'close').length, 'late answers keeping the connection open').toBe(0)

      // A request cut off without an answer must not have been charged; every answered one was, once.
      const refs = new Set(
        (await db<{ ref: string }[]>`select external_ref as ref from ledger_entries where type = 'consume'`).map(
          (row) => row.ref,
        ),
      )
      const cut = sent.filter((m) => m.failure && m.failure !== 'ECONNREFUSED')
      expect(
        cut.filter((m) => refs.has(`usage:${m.id}`)).map((m) => m.failure),
        'committed, never answered',
      ).toEqual([])
      expect(answered.filter((m) => !refs.has(`usage:${m.id}`)).length).toBe(0)
      expect(refs.size).toBe(answered.length)
    } finally {
      await db.end({ timeout: 5 })
      if (server.child.exitCode === null && !server.child.signalCode) await server.stop({ forceAfterMs: 1 })
    }
  }, 90_000)
})

describeWithService('TEST_DATABASE_URL', 'draining on SIGTERM with DRAIN_DELAY_MS', () => {
  it('answers readiness 503 at once, keeps serving through the delay, then closes with no failed request', async () => {
    const token = 'shutdown-usage-service-token-0123456789'
    const delayMs = 2_500
    const server = await serveBuild({
      ...secrets,
      DATABASE_URL: databaseUrl,
      CI: '',
      TEST: '',
      USAGE_SERVICE_TOKEN: token,
      SERVER_SHUTDOWN_TIMEOUT: '8',
      DRAIN_DELAY_MS: String(delayMs),
    })
    const db = postgres(databaseUrl, { max: 1, onnotice: () => {} })
    try {
      const keyId = await fundedKey(db)

      const agent = new Agent({ keepAlive: true, maxSockets: 6 })
      const sent: Metered[] = []
      // The clients stand behind a balancer: they send until it has seen readiness fail (a second later).
      let inRotation = true
      const workers = Array.from({ length: 6 }, async () => {
        while (inRotation && server.child.exitCode === null) sent.push(await meter(agent, server.baseUrl, keyId, token))
      })
      await new Promise((r) => setTimeout(r, 1_000))
      const signalledAt = performance.now()
      const stopped = server.stop({ forceAfterMs: 30_000 })
      // What a balancer's health check sees on a fresh connection from then on.
      const readiness: Array<{ at: number; status?: number; failure?: string }> = []
      while (server.child.exitCode === null && performance.now() - signalledAt < delayMs + 3_000) {
        try {
          const response = await fetch(`${server.baseUrl}/healthz`, { headers: { connection: 'close' } })
          readiness.push({ at: performance.now() - signalledAt, status: response.status })
          await response.body?.cancel()
          if (response.status === 503 && inRotation) setTimeout(() => (inRotation = false), 1_000)
        } catch (error) {
          readiness.push({ at: performance.now() - signalledAt, failure: String((error as Error).cause ?? error) })
          break
        }
        await new Promise((r) => setTimeout(r, 100))
      }
      await Promise.all(workers)
      const { code, signal } = await stopped
      const took = performance.now() - signalledAt
      agent.destroy()

      expect({ code, signal }, server.output()).toEqual({ code: 0, signal: null })
      expect(server.output()).not.toMatch(/timed out|Forcibly/)
      expect(took, 'held open for the drain delay').toBeGreaterThanOrEqual(delayMs - 100)
      // Readiness fails from the moment the signal lands, while the listener still accepts.
      const answeredReadiness = readiness.filter((r) => r.status !== undefined)
      expect(answeredReadiness.length, JSON.stringify(readiness)).toBeGreaterThan(3)
      // (The signal reaches a loaded process some milliseconds late: count from its first 503.)
      const first503 = answeredReadiness.findIndex((r) => r.status === 503)
      expect(first503, JSON.stringify(readiness)).toBeGreaterThanOrEqual(0)
      expect(answeredReadiness[first503].at).toBeLessThan(delayMs / 2)
      expect(answeredReadiness.slice(first503).filter((r) => r.status !== 503)).toEqual([])
      expect(answeredReadiness.at(-1)!.at).toBeGreaterThan(delayMs * 0.7)

      // Every request sent, before and after the signal, got its answer: none cut, none refused.
      const answered = sent.filter((m) => m.status !== undefined)
      expect(answered.filter((m) => m.status !== 200).map((m) => m.status)).toEqual([])
      expect(sent.filter((m) => m.failure).map((m) => m.failure)).toEqual([])
      expect(answered.filter((m) => m.at > signalledAt + 200).length, 'served during the delay').toBeGreaterThan(5)
      const refs = await db<
        { n: number }[]
      >`select count(*)::int as n from ledger_entries where type = 'consume' and key_id = ${keyId}`
      expect(refs[0].n).toBe(answered.length)
    } finally {
      await db.end({ timeout: 5 })
      if (server.child.exitCode === null && !server.child.signalCode) await server.stop({ forceAfterMs: 1 })
    }
  }, 90_000)
})
