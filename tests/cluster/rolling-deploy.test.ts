import { randomUUID } from 'node:crypto'
import { Agent } from 'node:http'
import postgres from 'postgres'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { previousReleaseBuild, PREVIOUS_RELEASE } from '../../scripts/previous-release.mjs'
import { serveBuild, type ServedBuild } from '../e2e/support/server'
import { freePort } from '../support/ports'
import { statusOf } from './support/status-of'
import { describeNeeding } from '../support/services'
import { keyFrom } from '../support/trial-key'
import { backendStates, hasHaproxy, startHaproxy } from './support/processes'

/**
 * A rolling deploy (README "Migrations: expand, then contract"): the previous release serves, the current one
 * starts beside it and migrates the shared database, and the previous release, started again on the migrated
 * database (a restart mid-deploy), serves beside it; API traffic flows through the balancer the whole time and
 * not one request fails. A migration that drops or renames what the previous release uses fails it.
 */
const missing = !process.env.TEST_DATABASE_URL
  ? 'TEST_DATABASE_URL set (a Postgres for the deploy)'
  : !hasHaproxy()
    ? 'haproxy installed (apt-get install haproxy)'
    : undefined

describeNeeding(missing, `a rolling deploy from ${PREVIOUS_RELEASE.slice(0, 7)} to this build`, () => {
  const adminUrl = process.env.TEST_DATABASE_URL!
  const name = `rolling_${process.pid}_${Date.now().toString(36)}`
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} })
  let databaseUrl = ''
  let previousEntry = ''
  const running: ServedBuild[] = []
  let stopBalancer: (() => Promise<void>) | undefined

  beforeAll(async () => {
    // Built once per machine (a minute or more), then reused from the user's cache: scripts/previous-release.mjs.
    previousEntry = previousReleaseBuild()
    await admin.unsafe(`create database "${name}"`)
    const url = new URL(adminUrl)
    url.pathname = `/${name}`
    databaseUrl = url.toString()
  }, 900_000)
  afterAll(async () => {
    await Promise.all(running.map((server) => server.stop({ forceAfterMs: 10_000 })))
    await stopBalancer?.()
    await admin.unsafe(`drop database if exists "${name}" with (force)`)
    await admin.end({ timeout: 5 })
  })

  it('serves every request while the current release migrates under the previous one and both run', async () => {
    const usageToken = 'rolling-usage-service-token-0123456789'
    const env = {
      DATABASE_URL: databaseUrl,
      REDIS_URL: '',
      CAPTCHA_SECRET: 'rolling-captcha-secret-0123456789',
      BULK_DOWNLOAD_SECRET: 'rolling-bulk-secret-0123456789',
      PAYMENTS_SANDBOX_SECRET: 'rolling-sandbox-secret-0123456789',
      KEY_ENCRYPTION_SECRET: 'rolling-key-encryption-secret-0123456789-0123',
      USAGE_SERVICE_TOKEN: usageToken,
      RATE_LIMIT_TRIAL: '100/3600',
      RATE_LIMIT_KEYS: 'off',
      LOG_LEVEL: 'info',
    }
    const ports = { previous: await freePort(), current: await freePort(), restarted: await freePort() }
    const balancer = await startHaproxy([
      { name: 'previous', port: ports.previous },
      { name: 'current', port: ports.current },
      { name: 'restarted', port: ports.restarted },
    ])
    stopBalancer = balancer.stop
    const up = async (names: string[]) => {
      const deadline = Date.now() + 30_000
      while (Date.now() < deadline) {
        const states = await backendStates(balancer.statsUrl)
        if (names.every((n) => states[n] === 'UP')) return
        await new Promise((r) => setTimeout(r, 100))
      }
      throw new Error(`not up: ${names.join(', ')}`)
    }

    // The previous release alone, on a database only it has migrated.
    const previous = await serveBuild(
      { ...env, INSTANCE_ID: 'previous' },
      { port: ports.previous, entry: previousEntry },
    )
    running.push(previous)
    await up(['previous'])
    const apiKey = await keyFrom(balancer.url)
    const keyId = (
      (await (
        await fetch(`${balancer.url}/api/v1/api_key/fe_user`, { headers: { authorization: `Bearer ${apiKey}` } })
      ).json()) as { key_id: string }
    ).key_id

    // Traffic all along: metered debits, key info and embeddings, as clients send them.
    const agent = new Agent({ keepAlive: true, maxSockets: 6 })
    const outcomes: Array<{ what: string; status: number }> = []
    let flowing = true
    const calls = [
      () =>
        call(agent, balancer.url, 'POST', '/internal/v1/usage', usageToken, {
          key_id: keyId,
          product: 'reader',
          tokens: 1,
          usage_event_id: randomUUID(),
        }),
      () => call(agent, balancer.url, 'GET', '/api/v1/api_key/fe_user', apiKey),
      () => call(agent, balancer.url, 'POST', '/v1/embeddings', apiKey, { model: 'embeddings-v3', input: ['rolling'] }),
    ]
    const traffic = Array.from({ length: 3 }, async (_, n) => {
      while (flowing) outcomes.push({ what: String(n), status: await calls[n]() })
    })

    // The current release starts beside it: it migrates the shared database while the previous one serves.
    const current = await serveBuild({ ...env, INSTANCE_ID: 'current' }, { port: ports.current })
    running.push(current)
    await up(['previous', 'current'])
    // The previous release started again on the migrated database, as a restart during the deploy would.
    const restarted = await serveBuild(
      { ...env, INSTANCE_ID: 'restarted' },
      { port: ports.restarted, entry: previousEntry },
    )
    running.push(restarted)
    await up(['previous', 'current', 'restarted'])
    await new Promise((r) => setTimeout(r, 3_000))
    flowing = false
    await Promise.all(traffic)
    agent.destroy()

    const failed = outcomes.filter((o) => o.status !== 200)
    expect(failed, JSON.stringify(failed.slice(0, 5))).toEqual([])
    expect(outcomes.length).toBeGreaterThan(60)
    // Each of the three answered its share.
    for (const server of [previous, current, restarted])
      expect(server.output().match(/"msg":"request".*"path":"\/v1\/embeddings"/g)?.length ?? 0).toBeGreaterThan(0)
    // Every debit answered is in the ledger once.
    const db = postgres(databaseUrl, { max: 1, onnotice: () => {} })
    try {
      const [{ n }] = await db<{ n: number }[]>`
        select count(*)::int as n from ledger_entries where key_id = ${keyId} and external_ref like 'usage:%'
          and product = 'reader'`
      expect(n).toBe(outcomes.filter((o) => o.what === '0').length)
    } finally {
      await db.end({ timeout: 5 })
    }
  })
})

const call = (agent: Agent, base: string, method: string, path: string, bearer: string, body?: object) =>
  statusOf(agent, `${base}${path}`, { method, bearer, body })
