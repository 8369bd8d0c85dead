import { randomUUID } from 'node:crypto'
import { rmSync } from 'node:fs'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runWebhooks, webhooksIdle } from '~/server/api/webhooks/worker'
import { rowsOf } from '~/server/db/rows'
import { bySystem } from '~/server/domain/audit'
import { issueKey } from '~/server/domain/keys'
import { applyEntry } from '~/server/domain/ledger'
import { SERVICE_TOKEN, apiDatabase, call } from '../support/api'
import { drainQueue, upload, uploadForm } from '../support/bulk'
import { startFakeDns, type FakeDns } from '../support/dns'
import { buyPack, sandbox, SANDBOX_SECRET } from '../support/payments'
import { createEndpoint, signedInAccount, startReceiver, verified, type Receiver } from '../support/webhook-receiver'

/**
 * Webhooks as an owner sees them: endpoints made and managed through the session API, the events of today's
 * sources (keys, balance alerts, payments, bulk jobs, batches) signed so that the standardwebhooks package
 * verifies what a loopback receiver got, the delivery log with replay and a test event, and the reader's
 * address rules at creation and at every attempt.
 */
const dataDir = `tests/.tmp/webhooks-${process.pid}`
const database = apiDatabase({
  env: {
    DATA_DIR: dataDir,
    JOB_WORKER: 'off',
    PAYMENTS_SANDBOX_SECRET: SANDBOX_SECRET,
    WEBHOOKS_ALLOW_PRIVATE_NETWORKS: 'true',
  },
})
let receiver: Receiver
let dns: FakeDns
const zone: Record<string, { A?: string[] }> = {}
beforeAll(async () => {
  receiver = await startReceiver()
  dns = await startFakeDns(zone)
})
afterAll(async () => {
  await webhooksIdle()
  await receiver?.close()
  await dns?.close()
  rmSync(dataDir, { recursive: true, force: true })
})

/** What the worker would do next, now: fan out the events waiting and make the attempts due. */
const deliver = async () => {
  await webhooksIdle()
  return runWebhooks(database.db)
}
const path = () => `/hook-${randomUUID().slice(0, 8)}`

async function withEnv<T>(vars: Record<string, string>, run: () => Promise<T>): Promise<T> {
  const before = Object.fromEntries(Object.keys(vars).map((name) => [name, process.env[name]]))
  Object.assign(process.env, vars)
  try {
    return await run()
  } finally {
    for (const [name, value] of Object.entries(before))
      if (value === undefined) delete process.env[name]
      else process.env[name] = value
  }
}

describe('webhook endpoints', () => {
  it('answers the whsec_ secret once, at creation, and lists the endpoint to its owner alone', async () => {
    const owner = await signedInAccount(database.db)
    const stranger = await signedInAccount(database.db, 'stranger')
    const created = await createEndpoint(owner.headers, {
      url: receiver.url(path()),
      events: ['key.created', 'key.created', 'balance.low'],
      description: 'production',
    })
    expect(created.status).toBe(200)
    expect(created.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/)
    expect(created.body).toMatchObject({
      events: ['key.created', 'balance.low'],
      description: 'production',
      disabled: false,
      disabled_reason: null,
      previous_secret_until: null,
    })
    const listed = await call('GET', '/api/v1/account/webhooks', { headers: owner.headers })
    expect(listed.body.endpoints.map((e: any) => e.id)).toEqual([created.body.id])
    expect(JSON.stringify(listed.body)).not.toContain(created.body.secret)
    const one = await call('GET', `/api/v1/account/webhooks/${created.body.id}`, { headers: owner.headers })
    expect(one.body).not.toHaveProperty('secret')

    expect((await call('GET', '/api/v1/account/webhooks', { headers: stranger.headers })).body.endpoints).toEqual([])
    for (const [method, suffix] of [
      ['GET', ''],
      ['PATCH', ''],
      ['DELETE', ''],
      ['POST', '/rotate_secret'],
      ['POST', '/test'],
      ['GET', '/deliveries'],
    ] as const) {
      const answer = await call(method, `/api/v1/account/webhooks/${created.body.id}${suffix}`, {
        headers: stranger.headers,
        ...(method === 'PATCH' ? { json: { disabled: true } } : {}),
      })
      expect(answer, `${method} ${suffix}`).toMatchObject({
        status: 404,
        body: { detail: 'Webhook endpoint not found' },
      })
    }
    expect((await call('GET', '/api/v1/account/webhooks')).status).toBe(401)
    expect(
      (await call('POST', '/api/v1/account/webhooks', { json: { url: receiver.url('/x'), events: ['key.created'] } }))
        .status,
    ).toBe(401)
  })

  it('refuses unknown events, no events, other schemes and credentials in the URL, and a 21st endpoint', async () => {
    const owner = await signedInAccount(database.db)
    const refused = async (json: unknown) => {
      const answer = await call('POST', '/api/v1/account/webhooks', { headers: owner.headers, json })
      expect(answer.status, JSON.stringify(json)).toBe(422)
      return answer.body.detail
    }
    await refused({ url: receiver.url('/x'), events: ['key.exploded'] })
    await refused({ url: receiver.url('/x'), events: [] })
    await refused({ url: 'ftp://127.0.0.1/x', events: ['key.created'] })
    await refused({ url: `http://user:pass@127.0.0.1:${receiver.port}/x`, events: ['key.created'] })
    await refused({ url: receiver.url('/x'), events: ['webhook.test'] })
    for (let i = 0; i < 20; i++)
      expect(
        (await createEndpoint(owner.headers, { url: receiver.url(`/many-${i}`), events: ['key.created'] })).status,
      ).toBe(200)
    expect(
      await createEndpoint(owner.headers, { url: receiver.url('/one-too-many'), events: ['key.created'] }),
    ).toMatchObject({
      status: 409,
      body: { detail: 'An organisation has at most 20 webhook endpoints' },
    })
  })

  it('changes events, URL and description, disables and deletes, each in the audit log', async () => {
    const owner = await signedInAccount(database.db)
    const { body: created } = await createEndpoint(owner.headers, {
      url: receiver.url(path()),
      events: ['key.created'],
    })
    const url = `/api/v1/account/webhooks/${created.id}`
    const changed = await call('PATCH', url, {
      headers: owner.headers,
      json: { events: ['key.revoked', 'payment.succeeded'], url: receiver.url('/moved'), description: 'moved' },
    })
    expect(changed.body).toMatchObject({
      events: ['key.revoked', 'payment.succeeded'],
      url: receiver.url('/moved'),
      description: 'moved',
    })
    const disabled = await call('PATCH', url, { headers: owner.headers, json: { disabled: true } })
    expect(disabled.body).toMatchObject({ disabled: true, disabled_reason: 'owner' })
    expect(await call('POST', `${url}/test`, { headers: owner.headers })).toMatchObject({
      status: 409,
      body: { detail: 'This webhook endpoint is disabled: enable it first' },
    })
    expect((await call('PATCH', url, { headers: owner.headers, json: { disabled: false } })).body.disabled).toBe(false)
    expect((await call('DELETE', url, { headers: owner.headers })).body).toEqual({ detail: 'Webhook endpoint deleted' })
    expect((await call('GET', url, { headers: owner.headers })).status).toBe(404)
    const audit = rowsOf<{ action: string; details: unknown }>(
      await database.db.execute(sql`select action, details from audit_log where account_id = ${owner.uid} order by id`),
    )
    expect(audit.map((e) => e.action)).toEqual([
      'session.opened',
      'webhook.created',
      'webhook.changed',
      'webhook.changed',
      'webhook.changed',
      'webhook.deleted',
    ])
    expect(audit[1].details).toEqual({ endpoint_id: created.id, host: `127.0.0.1:${receiver.port}` })
    expect(JSON.stringify(audit)).not.toContain('/moved')
  })
})

describe('events, signed', () => {
  it('sends key.created and key.revoked of the owner’s keys, verified by standardwebhooks, to the endpoints that asked', async () => {
    const owner = await signedInAccount(database.db)
    const keysPath = path()
    const paymentsPath = path()
    const keys = await createEndpoint(owner.headers, {
      url: receiver.url(keysPath),
      events: ['key.created', 'key.revoked'],
    })
    const payments = await createEndpoint(owner.headers, {
      url: receiver.url(paymentsPath),
      events: ['payment.succeeded'],
    })
    const { apiKey, key } = await issueKey(database.db, bySystem, 'empty', { ownerId: owner.uid, name: 'ci' })
    await issueKey(database.db, bySystem, 'empty', { ownerId: `someone-else-${randomUUID()}` })
    await issueKey(database.db, bySystem, 'empty')
    expect((await call('DELETE', `/api/v1/account/keys/${key.id}`, { headers: owner.headers })).status).toBe(200)
    await deliver()

    const got = receiver.at(keysPath)
    expect(got).toHaveLength(2)
    expect(receiver.at(paymentsPath)).toHaveLength(0)
    // Attempts of one pass go out together, so they may arrive in any order.
    got.sort((a, b) => verified(keys.body.secret, a).type.localeCompare(verified(keys.body.secret, b).type))
    const [createdEvent, revokedEvent] = got.map((request) => verified(keys.body.secret, request))
    const display = `${key.prefix}…${key.last4}`
    expect(createdEvent).toEqual({
      type: 'key.created',
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      data: { key_id: key.id, name: 'ci', key_display: display },
    })
    expect(revokedEvent).toMatchObject({
      type: 'key.revoked',
      data: { key_id: key.id, name: 'ci', key_display: display },
    })
    expect(got[0].headers['webhook-id']).toMatch(/^msg_[0-9a-f]{32}$/)
    expect(got[0].headers['webhook-id']).not.toBe(got[1].headers['webhook-id'])
    expect(got[0].headers['content-type']).toBe('application/json')
    expect(got[0].body).not.toContain(apiKey)
    // Signed with this endpoint's secret, not another's.
    expect(() => verified(payments.body.secret, got[0])).toThrow('No matching signature found')
    // Tampered bodies do not verify.
    expect(() => verified(keys.body.secret, { ...got[0], body: got[0].body.replace('ci', 'cd') })).toThrow()
  })

  it('sends balance.low when a debit crosses an alert threshold, from the transaction that mailed it', async () => {
    const owner = await signedInAccount(database.db)
    const hook = path()
    const { body: endpoint } = await createEndpoint(owner.headers, { url: receiver.url(hook), events: ['balance.low'] })
    const { apiKey, key } = await issueKey(database.db, bySystem, 'empty', { ownerId: owner.uid })
    await applyEntry(database.db, {
      keyId: key.id,
      amount: 10_000,
      type: 'purchase',
      externalRef: `purchase:${randomUUID()}`,
    })
    const alerts = await call('POST', '/api/v1/billing/balance_notification', {
      bearer: apiKey,
      json: { thresholds: [5000], email: `${owner.uid}@example.com` },
    })
    expect(alerts.status).toBe(200)
    const metered = await call('POST', '/internal/v1/usage', {
      bearer: SERVICE_TOKEN,
      json: { api_key: apiKey, product: 'embeddings', tokens: 6000, usage_event_id: randomUUID() },
    })
    expect(metered.body.balance).toBe(4000)
    await deliver()
    expect(receiver.at(hook).map((r) => verified(endpoint.secret, r))).toEqual([
      { type: 'balance.low', timestamp: expect.any(String), data: { key_id: key.id, threshold: 5000, balance: 4000 } },
    ])
  })

  it('sends payment.succeeded once a purchase is credited', async () => {
    const owner = await signedInAccount(database.db)
    const hook = path()
    const { body: endpoint } = await createEndpoint(owner.headers, {
      url: receiver.url(hook),
      events: ['payment.succeeded'],
    })
    const { apiKey, key } = await issueKey(database.db, bySystem, 'empty', { ownerId: owner.uid })
    await buyPack(apiKey)
    await sandbox().idle()
    await deliver()
    const [event] = receiver.at(hook).map((r) => verified(endpoint.secret, r))
    expect(event).toMatchObject({
      type: 'payment.succeeded',
      data: {
        key_id: key.id,
        kind: 'checkout',
        tokens: expect.any(Number),
        amount: expect.any(Number),
        currency: expect.any(String),
      },
    })
    expect(receiver.at(hook)).toHaveLength(1)
  })

  it('sends bulk_job.completed and batch.completed when each ends', async () => {
    const owner = await signedInAccount(database.db)
    const hook = path()
    const { body: endpoint } = await createEndpoint(owner.headers, {
      url: receiver.url(hook),
      events: ['bulk_job.completed', 'batch.completed'],
    })
    const { apiKey, key } = await issueKey(database.db, bySystem, 'trial', { ownerId: owner.uid })
    const job = await upload(apiKey, uploadForm('texts.txt', 'one\ntwo\nthree', { model: 'embeddings-v3' }))
    expect(job.status).toBe(200)
    const form = new FormData()
    form.append('purpose', 'batch')
    const line = { custom_id: 'a', method: 'POST', url: '/v1/embeddings', body: { model: 'embeddings-v3', input: 'a' } }
    form.append('file', new Blob([JSON.stringify(line) + '\n']), 'batch.jsonl')
    const encoded = new Response(form)
    const file = await call('POST', '/v1/files', {
      bearer: apiKey,
      headers: { 'content-type': encoded.headers.get('content-type')! },
      body: await encoded.blob(),
    })
    const batch = await call('POST', '/v1/batches', {
      bearer: apiKey,
      json: { input_file_id: file.body.id, endpoint: '/v1/embeddings', completion_window: '24h' },
    })
    expect(batch.status).toBe(200)
    await drainQueue(database.db)
    await deliver()
    const events = receiver.at(hook).map((r) => verified(endpoint.secret, r))
    expect(events).toHaveLength(2)
    expect(events).toContainEqual({
      type: 'bulk_job.completed',
      timestamp: expect.any(String),
      data: { job_id: job.body.id, key_id: key.id, model: 'embeddings-v3', total_rows: 3, processed_rows: 3 },
    })
    expect(events).toContainEqual({
      type: 'batch.completed',
      timestamp: expect.any(String),
      data: { batch_id: batch.body.id, key_id: key.id },
    })
  })
})

describe('the delivery log', () => {
  it('logs each attempt, replays a delivery with the same webhook-id, and sends a test event to one endpoint', async () => {
    const owner = await signedInAccount(database.db)
    const hook = path()
    const { body: endpoint } = await createEndpoint(owner.headers, { url: receiver.url(hook), events: ['key.created'] })
    receiver.answer(hook, 503)
    const { key } = await issueKey(database.db, bySystem, 'empty', { ownerId: owner.uid })
    await deliver()
    const log = await call('GET', `/api/v1/account/webhooks/${endpoint.id}/deliveries`, { headers: owner.headers })
    expect(log.status).toBe(200)
    const [first] = log.body.deliveries
    expect(first).toMatchObject({
      event_type: 'key.created',
      status: 'pending',
      replay_of: null,
      payload: { type: 'key.created', data: { key_id: key.id } },
      attempts: [{ response_status: 503, response_body: 'answered 503', error: null, succeeded: false }],
    })
    expect(first.attempts[0].duration_ms).toBeGreaterThanOrEqual(0)
    expect(Date.parse(first.next_attempt_at) - Date.now()).toBeLessThan(10_000)

    const replayed = await call('POST', `/api/v1/account/webhooks/${endpoint.id}/deliveries/${first.id}/replay`, {
      headers: owner.headers,
    })
    expect(replayed.body).toMatchObject({ replay_of: first.id, event_id: first.event_id, status: 'pending' })
    await deliver()
    const received = receiver.at(hook)
    expect(received).toHaveLength(2)
    expect(received[1].headers['webhook-id']).toBe(received[0].headers['webhook-id'])
    expect(received[1].body).toBe(received[0].body)
    expect(verified(endpoint.secret, received[1]).data.key_id).toBe(key.id)

    const tested = await call('POST', `/api/v1/account/webhooks/${endpoint.id}/test`, { headers: owner.headers })
    expect(tested.body).toMatchObject({ event_type: 'webhook.test', status: 'pending' })
    await deliver()
    const test = verified(endpoint.secret, receiver.at(hook)[2])
    expect(test).toMatchObject({ type: 'webhook.test', data: { endpoint_id: endpoint.id } })

    const after = await call('GET', `/api/v1/account/webhooks/${endpoint.id}/deliveries`, { headers: owner.headers })
    expect(after.body.deliveries.map((d: any) => [d.event_type, d.status])).toEqual([
      ['webhook.test', 'delivered'],
      ['key.created', 'delivered'],
      ['key.created', 'pending'],
    ])
    const delivered = await call('GET', `/api/v1/account/webhooks/${endpoint.id}/deliveries`, {
      headers: owner.headers,
      query: { status: 'delivered', limit: '1' },
    })
    expect(delivered.body.deliveries).toHaveLength(1)
    expect(delivered.body.deliveries[0].attempts).toMatchObject([{ response_status: 200, succeeded: true }])
    const other = await signedInAccount(database.db)
    expect(
      (
        await call('POST', `/api/v1/account/webhooks/${endpoint.id}/deliveries/${first.id}/replay`, {
          headers: other.headers,
        })
      ).status,
    ).toBe(404)
    expect(
      (
        await call('POST', `/api/v1/account/webhooks/${endpoint.id}/deliveries/${randomUUID()}/replay`, {
          headers: owner.headers,
        })
      ).body,
    ).toEqual({ detail: 'Webhook delivery not found' })
  })
})

describe('address rules', () => {
  it('refuses loopback, private, link-local and metadata addresses unless WEBHOOKS_ALLOW_PRIVATE_NETWORKS=true', async () => {
    const owner = await signedInAccount(database.db)
    await withEnv({ WEBHOOKS_ALLOW_PRIVATE_NETWORKS: 'false' }, async () => {
      for (const url of [
        receiver.url('/private'),
        `http://localhost:${receiver.port}/private`,
        'http://10.0.0.8/hook',
        'http://169.254.169.254/latest',
        'http://[::1]/hook',
        'http://[::ffff:127.0.0.1]/hook',
        'https://100.100.100.200/hook',
      ]) {
        const answer = await createEndpoint(owner.headers, { url, events: ['key.created'] })
        expect(answer.status, url).toBe(422)
        expect(answer.body.detail, url).toMatch(/^Refused to send webhooks to .*: it is not a public address$/)
      }
    })
    expect(
      (await createEndpoint(owner.headers, { url: receiver.url('/private'), events: ['key.created'] })).status,
    ).toBe(200)
  })

  it('checks the address again at every attempt: a flag turned off, and a name rebound to loopback, are refused then', async () => {
    const owner = await signedInAccount(database.db)
    const hook = path()
    const { body: direct } = await createEndpoint(owner.headers, { url: receiver.url(hook), events: ['key.created'] })
    zone['hooks.rebind.test'] = { A: ['93.184.216.34'] }
    const named = await withEnv(
      { WEBHOOKS_ALLOW_PRIVATE_NETWORKS: 'false', READER_DNS_SERVERS: dns.server },
      async () => {
        const mixed = (zone['mixed.rebind.test'] = { A: ['93.184.216.34', '127.0.0.1'] })
        expect(mixed).toBeTruthy()
        expect(
          (
            await createEndpoint(owner.headers, {
              url: `http://mixed.rebind.test:${receiver.port}${hook}`,
              events: ['key.created'],
            })
          ).status,
        ).toBe(422)
        expect(
          (await createEndpoint(owner.headers, { url: `http://nowhere.rebind.test${hook}`, events: ['key.created'] }))
            .body,
        ).toEqual({ detail: "The webhook URL's host nowhere.rebind.test does not resolve" })
        const created = await createEndpoint(owner.headers, {
          url: `http://hooks.rebind.test:${receiver.port}${hook}`,
          events: ['key.created'],
        })
        expect(created.status).toBe(200)
        zone['hooks.rebind.test'] = { A: ['127.0.0.1'] }
        await issueKey(database.db, bySystem, 'empty', { ownerId: owner.uid })
        await deliver()
        return created.body
      },
    )
    expect(receiver.at(hook)).toHaveLength(0)
    for (const endpoint of [direct, named]) {
      const log = await call('GET', `/api/v1/account/webhooks/${endpoint.id}/deliveries`, { headers: owner.headers })
      expect(log.body.deliveries[0].attempts).toMatchObject([
        { response_status: null, succeeded: false, error: expect.stringMatching(/it is not a public address$/) },
      ])
    }
  })
})
