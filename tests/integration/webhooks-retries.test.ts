import { randomUUID } from 'node:crypto'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runWebhooks, webhooksIdle } from '~/server/api/webhooks/worker'
import { rowsOf } from '~/server/db/rows'
import { apiDatabase, call } from '../support/api'
import { createEndpoint, signedInAccount, startReceiver, verified, type Receiver } from '../support/webhook-receiver'

/**
 * The outbox's schedule, driven by running the due deliveries with a `now` ahead of the clock (which stands
 * for the database's in every step): a receiver that fails, times out and comes back; the retries of three
 * days and the endpoint they disable; a rotated secret signing beside the new one for 24 hours; two workers at
 * once sending each delivery once.
 */
const database = apiDatabase({ env: { WEBHOOKS_ALLOW_PRIVATE_NETWORKS: 'true' } })
let receiver: Receiver
beforeAll(async () => {
  receiver = await startReceiver()
})
afterAll(async () => {
  await webhooksIdle()
  await receiver?.close()
})

const HOUR = 3_600_000
const later = (ms: number, from = Date.now()) => new Date(from + ms)

/** An account with one endpoint on its own path, and a test event sent to it (attempted at once, in the background). */
async function endpointWithTestEvent(events = ['key.created']) {
  const owner = await signedInAccount(database.db)
  const path = `/retry-${randomUUID().slice(0, 8)}`
  const { body: endpoint } = await createEndpoint(owner.headers, { url: receiver.url(path), events })
  return { owner, path, endpoint }
}
const sendTest = async (owner: { headers: Record<string, string> }, id: string) => {
  const answer = await call('POST', `/api/v1/account/webhooks/${id}/test`, { headers: owner.headers })
  expect(answer.status).toBe(200)
  await webhooksIdle()
  return answer.body
}
const deliveryOf = async (owner: { headers: Record<string, string> }, endpointId: string, deliveryId: string) => {
  const log = await call('GET', `/api/v1/account/webhooks/${endpointId}/deliveries`, { headers: owner.headers })
  return log.body.deliveries.find((d: any) => d.id === deliveryId)
}

describe('retries', () => {
  it('delivers after a 500 and a timeout, once the receiver comes back, on the schedule 5 s then 5 min', async () => {
    const { owner, path, endpoint } = await endpointWithTestEvent()
    receiver.answer(path, 500, 'hang')
    const start = Date.now()
    const sent = await sendTest(owner, endpoint.id)
    let delivery = await deliveryOf(owner, endpoint.id, sent.id)
    expect(delivery).toMatchObject({ status: 'pending', attempts: [{ response_status: 500, succeeded: false }] })
    const retryIn = Date.parse(delivery.next_attempt_at) - Date.parse(delivery.attempts[0].attempted_at)
    expect(retryIn).toBeGreaterThanOrEqual(4400)
    expect(retryIn).toBeLessThanOrEqual(5600)

    expect(await runWebhooks(database.db, { now: later(3000, start) })).toEqual({ delivered: 0, failed: 0 })
    expect(await runWebhooks(database.db, { now: later(6000, start), timeoutMs: 300 })).toEqual({
      delivered: 0,
      failed: 1,
    })
    delivery = await deliveryOf(owner, endpoint.id, sent.id)
    expect(delivery.attempts[1]).toMatchObject({
      response_status: null,
      error: 'No answer within 0.3 s',
      succeeded: false,
    })
    expect(delivery.attempts[1].duration_ms).toBeGreaterThanOrEqual(250)
    const second = Date.parse(delivery.next_attempt_at) - Date.parse(delivery.attempts[1].attempted_at)
    expect(second).toBeGreaterThanOrEqual(270_000)
    expect(second).toBeLessThanOrEqual(330_000)

    expect(await runWebhooks(database.db, { now: later(6000 + 4 * 60_000, start) })).toEqual({
      delivered: 0,
      failed: 0,
    })
    expect(await runWebhooks(database.db, { now: later(6000 + 6 * 60_000, start) })).toEqual({
      delivered: 1,
      failed: 0,
    })
    delivery = await deliveryOf(owner, endpoint.id, sent.id)
    expect(delivery.status).toBe('delivered')
    expect(delivery.attempts.map((a: any) => a.response_status)).toEqual([500, null, 200])

    const got = receiver.at(path)
    expect(got).toHaveLength(3)
    expect(new Set(got.map((r) => r.headers['webhook-id'])).size).toBe(1)
    expect(new Set(got.map((r) => r.body)).size).toBe(1)
    for (const request of got) expect(verified(endpoint.secret, request).type).toBe('webhook.test')
    const { body: after } = await call('GET', `/api/v1/account/webhooks/${endpoint.id}`, { headers: owner.headers })
    expect(after.failing_since).toBeNull()
  })

  it('retries for three days and then fails; an endpoint failing for three days is disabled', async () => {
    const { owner, path, endpoint } = await endpointWithTestEvent()
    receiver.answerAlways(path, 500)
    const start = Date.now()
    const sent = await sendTest(owner, endpoint.id)
    let delivery = await deliveryOf(owner, endpoint.id, sent.id)
    while (delivery.status === 'pending') {
      await runWebhooks(database.db, { now: new Date(Date.parse(delivery.next_attempt_at) + 1000) })
      delivery = await deliveryOf(owner, endpoint.id, sent.id)
    }
    expect(delivery.status).toBe('failed')
    const times = delivery.attempts.map((a: any) => Date.parse(a.attempted_at) - start)
    // Immediately, 5 s, 5 min, 30 min, 2 h, 5 h, then every 10 h (each ±10 %) while within 3 days.
    expect(delivery.attempts.length).toBeGreaterThanOrEqual(11)
    expect(delivery.attempts.length).toBeLessThanOrEqual(13)
    expect(times.at(-1)).toBeLessThan(72 * HOUR)
    expect(times.at(-1)).toBeGreaterThan(55 * HOUR)
    const gaps = times.slice(1).map((t: number, i: number) => t - times[i])
    const schedule = [5, 300, 1800, 7200, 18_000, 36_000, 36_000]
    for (const [i, seconds] of schedule.entries()) {
      // Each wait is the schedule's ±10 %, plus the second the loop above waits past each due time.
      expect(gaps[i] / 1000, `retry ${i + 1}`).toBeGreaterThanOrEqual(seconds * 0.9)
      expect(gaps[i] / 1000, `retry ${i + 1}`).toBeLessThanOrEqual(seconds * 1.1 + 1.5)
    }
    let { body: state } = await call('GET', `/api/v1/account/webhooks/${endpoint.id}`, { headers: owner.headers })
    expect(state).toMatchObject({ disabled: false, failing_since: expect.any(String) })

    // An attempt that fails three days after the first failure disables the endpoint.
    const next = await sendTest(owner, endpoint.id)
    expect(await runWebhooks(database.db, { now: later(72 * HOUR + 60_000, start) })).toEqual({
      delivered: 0,
      failed: 1,
    })
    ;({ body: state } = await call('GET', `/api/v1/account/webhooks/${endpoint.id}`, { headers: owner.headers }))
    expect(state).toMatchObject({ disabled: true, disabled_reason: 'failing' })
    expect((await deliveryOf(owner, endpoint.id, next.id)).status).toBe('failed')
    expect(
      (await call('POST', `/api/v1/account/webhooks/${endpoint.id}/test`, { headers: owner.headers })).status,
    ).toBe(409)

    // Enabled again: a fresh start.
    const enabled = await call('PATCH', `/api/v1/account/webhooks/${endpoint.id}`, {
      headers: owner.headers,
      json: { disabled: false },
    })
    expect(enabled.body).toMatchObject({ disabled: false, disabled_reason: null, failing_since: null })
  })

  it('stops a pending delivery at its next attempt once the owner disables the endpoint', async () => {
    const { owner, path, endpoint } = await endpointWithTestEvent()
    receiver.answer(path, 500)
    const start = Date.now()
    const sent = await sendTest(owner, endpoint.id)
    await call('PATCH', `/api/v1/account/webhooks/${endpoint.id}`, { headers: owner.headers, json: { disabled: true } })
    await runWebhooks(database.db, { now: later(10_000, start) })
    const delivery = await deliveryOf(owner, endpoint.id, sent.id)
    expect(delivery.status).toBe('failed')
    expect(delivery.attempts.at(-1)).toMatchObject({ error: 'The endpoint is disabled', response_status: null })
    expect(receiver.at(path)).toHaveLength(1)
  })
})

describe('secret rotation', () => {
  it('signs with the new and the previous secret for 24 hours, then with the new one alone', async () => {
    const { owner, path, endpoint } = await endpointWithTestEvent()
    const rotated = await call('POST', `/api/v1/account/webhooks/${endpoint.id}/rotate_secret`, {
      headers: owner.headers,
    })
    expect(rotated.status).toBe(200)
    const next = rotated.body.secret
    expect(next).toMatch(/^whsec_/)
    expect(next).not.toBe(endpoint.secret)
    const until = Date.parse(rotated.body.previous_secret_until) - Date.now()
    expect(until).toBeGreaterThan(23.9 * HOUR)
    expect(until).toBeLessThanOrEqual(24 * HOUR)

    await sendTest(owner, endpoint.id)
    const [during] = receiver.at(path)
    expect(String(during.headers['webhook-signature']).split(' ')).toHaveLength(2)
    expect(verified(next, during).type).toBe('webhook.test')
    expect(verified(endpoint.secret, during).type).toBe('webhook.test')

    // Its first attempt fails within the 24 hours; its retry, 25 hours on, is signed with the new secret alone.
    receiver.answer(path, 500)
    await sendTest(owner, endpoint.id)
    expect(String(receiver.at(path)[1].headers['webhook-signature']).split(' ')).toHaveLength(2)
    expect(await runWebhooks(database.db, { now: later(25 * HOUR) })).toEqual({ delivered: 1, failed: 0 })
    expect(receiver.at(path)).toHaveLength(3)
    const after = receiver.at(path).at(-1)!
    expect(String(after.headers['webhook-signature']).split(' ')).toHaveLength(1)
    expect(verified(next, after).type).toBe('webhook.test')
    expect(() => verified(endpoint.secret, after)).toThrow('No matching signature found')
  })
})

describe('several workers', () => {
  it('send each delivery once however many run at once', async () => {
    const { owner, path, endpoint } = await endpointWithTestEvent()
    const ids: string[] = []
    for (let i = 0; i < 8; i++) {
      const sent = await call('POST', `/api/v1/account/webhooks/${endpoint.id}/test`, { headers: owner.headers })
      ids.push(sent.body.event_id)
    }
    await Promise.all([runWebhooks(database.db), runWebhooks(database.db), runWebhooks(database.db), webhooksIdle()])
    await webhooksIdle()
    const got = receiver.at(path).map((r) => String(r.headers['webhook-id']))
    expect(got.sort()).toEqual([...ids].sort())
    const [row] = rowsOf<{ attempts: number }>(
      await database.db.execute(
        sql`select count(*)::int as attempts from webhook_attempts a join webhook_deliveries d on d.id = a.delivery_id where d.endpoint_id = ${endpoint.id}::uuid`,
      ),
    )
    expect(Number(row.attempts)).toBe(8)
  })
})
