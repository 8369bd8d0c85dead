import postgres from 'postgres'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
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

describe('stopping the server', () => {
  it('exits by itself on SIGTERM once it has served requests', async () => {
    // CI and TEST turn the server's graceful shutdown off; this test is about that path.
    const server = await serveBuild({
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
