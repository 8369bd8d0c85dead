import { randomUUID } from 'node:crypto'
import { rmSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runWebhooks, webhooksIdle } from '~/server/api/webhooks/worker'
import { apiDatabase, call } from '../support/api'
import { drainQueue, upload, uploadForm } from '../support/bulk'
import { organisationWithBalance, signedInAccount } from '../support/organisations'
import { countTokens } from '../support/tokens'
import { startReceiver, verified, type Receiver } from '../support/webhook-receiver'

/**
 * `/v1/organization/webhooks`: an endpoint made through the Administration API alone gets the organisation's
 * events, signed so that the standardwebhooks package verifies what a loopback receiver got.
 */
const dataDir = `tests/.tmp/admin-webhooks-${process.pid}`
const database = apiDatabase({ env: { DATA_DIR: dataDir, JOB_WORKER: 'off', WEBHOOKS_ALLOW_PRIVATE_NETWORKS: 'true' } })
const org = '/v1/organization'
let receiver: Receiver
beforeAll(async () => {
  receiver = await startReceiver()
})
afterAll(async () => {
  await webhooksIdle()
  await receiver?.close()
  rmSync(dataDir, { recursive: true, force: true })
})
const deliver = async () => {
  await webhooksIdle()
  return runWebhooks(database.db)
}

async function team() {
  const owner = await signedInAccount(database.db, 'owner')
  const organisation = await organisationWithBalance(database.db, owner.uid, 1_000_000)
  const made = await call('POST', '/api/v1/account/admin_keys', {
    ...owner.init,
    json: { organisation_id: organisation.id, name: 'automation' },
  })
  expect(made.status).toBe(200)
  return { owner, organisation, admin: made.body.value as string }
}

const embed = (apiKey: string, text: string) =>
  call('POST', '/v1/embeddings', { bearer: apiKey, json: { model: 'embeddings-v3', input: [text] } })

describe('webhooks through the Administration API', () => {
  it('delivers a signed limit.reached and bulk_job.completed to an endpoint the admin key made', async () => {
    const { owner, organisation, admin } = await team()
    const hook = `/admin-${randomUUID().slice(0, 8)}`
    const created = await call('POST', `${org}/webhooks`, {
      bearer: admin,
      json: { url: receiver.url(hook), events: ['limit.reached', 'bulk_job.completed'] },
    })
    expect(created.status).toBe(200)
    expect(created.body.secret).toMatch(/^whsec_/)
    const secret = created.body.secret as string
    // The organisation's endpoint: its owner's session sees it there, and no list shows the secret.
    const listed = await call('GET', `${org}/webhooks`, { bearer: admin })
    expect(listed.body).toMatchObject({ object: 'list', has_more: false, data: [{ id: created.body.id }] })
    expect(JSON.stringify(listed.body)).not.toContain(secret)
    const bySession = await call('GET', '/api/v1/account/webhooks', {
      ...owner.init,
      query: { organisation_id: organisation.id },
    })
    expect(bySession.body.endpoints.map((e: { id: string }) => e.id)).toEqual([created.body.id])

    const project = await call('POST', `${org}/projects`, { bearer: admin, json: { name: 'p' } })
    const text = 'a request of a known size'
    const perRequest = countTokens(text)
    const capped = await call('POST', `${org}/projects/${project.body.id}/api_keys`, {
      bearer: admin,
      json: { name: 'capped', limits: { period: 'month', tokens: 2 * perRequest } },
    })
    for (let i = 0; i < 2; i++) expect((await embed(capped.body.value, text)).status).toBe(200)
    expect((await embed(capped.body.value, text)).status).toBe(402)

    const bulkKey = await call('POST', `${org}/projects/${project.body.id}/api_keys`, {
      bearer: admin,
      json: { name: 'bulk' },
    })
    const job = await upload(bulkKey.body.value, uploadForm('texts.txt', 'one\ntwo\nthree', { model: 'embeddings-v3' }))
    expect(job.status).toBe(200)
    await drainQueue(database.db)
    await deliver()
    await deliver()

    const events = receiver.at(hook).map((r) => verified(secret, r))
    expect(events).toHaveLength(2)
    expect(events).toContainEqual(
      expect.objectContaining({
        type: 'limit.reached',
        data: expect.objectContaining({ key_id: capped.body.id, unit: 'tokens', allowed_tokens: 2 * perRequest }),
      }),
    )
    expect(events).toContainEqual({
      type: 'bulk_job.completed',
      timestamp: expect.any(String),
      data: { job_id: job.body.id, key_id: bulkKey.body.id, model: 'embeddings-v3', total_rows: 3, processed_rows: 3 },
    })

    // The delivery log, and a replay with the same webhook-id.
    const log = await call('GET', `${org}/webhooks/${created.body.id}/deliveries`, {
      bearer: admin,
      query: { limit: '1' },
    })
    expect(log.body).toMatchObject({ object: 'list', has_more: true, data: [{ status: 'delivered' }] })
    const [first] = log.body.data
    const replay = await call('POST', `${org}/webhooks/${created.body.id}/deliveries/${first.id}/replay`, {
      bearer: admin,
    })
    expect(replay.body).toMatchObject({ replay_of: first.id, event_id: first.event_id })
    await deliver()
    const all = receiver.at(hook)
    expect(all).toHaveLength(3)
    expect(all[2].headers['webhook-id']).toBe(first.event_id)
  })

  it('gets, changes, rotates and deletes an endpoint; another organisation reads it as none', async () => {
    const { admin } = await team()
    const other = await team()
    const hook = `/admin-${randomUUID().slice(0, 8)}`
    const created = (
      await call('POST', `${org}/webhooks`, {
        bearer: admin,
        json: { url: receiver.url(hook), events: ['key.created'] },
      })
    ).body
    const path = `${org}/webhooks/${created.id}`
    for (const [method, at] of [
      ['GET', path],
      ['POST', path],
      ['DELETE', path],
      ['POST', `${path}/rotate_secret`],
      ['GET', `${path}/deliveries`],
    ])
      expect((await call(method, at, { bearer: other.admin, json: method === 'POST' ? {} : undefined })).status).toBe(
        404,
      )
    expect((await call('GET', path, { bearer: admin })).body).toMatchObject({ id: created.id, disabled: false })
    const changed = await call('POST', path, {
      bearer: admin,
      json: { events: ['key.created', 'key.revoked'], disabled: true },
    })
    expect(changed.body).toMatchObject({
      events: ['key.created', 'key.revoked'],
      disabled: true,
      disabled_reason: 'owner',
    })
    const rotated = await call('POST', `${path}/rotate_secret`, { bearer: admin })
    expect(rotated.body.secret).toMatch(/^whsec_/)
    expect(rotated.body.secret).not.toBe(created.secret)
    expect(rotated.body.previous_secret_until).toEqual(expect.any(String))
    // An unparseable URL is refused as the session route refuses it.
    expect((await call('POST', path, { bearer: admin, json: { url: 'not a url' } })).status).toBe(422)
    expect((await call('DELETE', path, { bearer: admin })).status).toBe(200)
    expect((await call('GET', path, { bearer: admin })).status).toBe(404)
  })
})
