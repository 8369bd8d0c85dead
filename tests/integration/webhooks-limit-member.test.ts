import { rmSync } from 'node:fs'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runWebhooks, webhooksIdle } from '~/server/api/webhooks/worker'
import { rowsOf } from '~/server/db/rows'
import { apiDatabase, call } from '../support/api'
import { organisationWithBalance, signedInAccount } from '../support/organisations'
import { countTokens } from '../support/tokens'
import { startReceiver, verified, type Receiver } from '../support/webhook-receiver'

/** `limit.reached` (from a spend limit's refusals) and `member.joined` (from an accepted invitation), as received. */
const dataDir = `tests/.tmp/webhooks-limit-member-${process.pid}`
const database = apiDatabase({ env: { DATA_DIR: dataDir, JOB_WORKER: 'off', WEBHOOKS_ALLOW_PRIVATE_NETWORKS: 'true' } })
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

/** A team whose owner made a webhook endpoint at `path` for `events`, and its admin key. */
async function team(path: string, events: string[]) {
  const owner = await signedInAccount(database.db, 'owner')
  const organisation = await organisationWithBalance(database.db, owner.uid, 1_000_000)
  const endpoint = await call('POST', '/api/v1/account/webhooks', {
    ...owner.init,
    json: { url: receiver.url(path), events, organisation_id: organisation.id },
  })
  expect(endpoint.status).toBe(200)
  const admin = await call('POST', '/api/v1/account/admin_keys', {
    ...owner.init,
    json: { organisation_id: organisation.id, name: 'ops' },
  })
  return { owner, organisation, secret: endpoint.body.secret as string, admin: admin.body.value as string }
}

const embed = (apiKey: string, text: string) =>
  call('POST', '/v1/embeddings', { bearer: apiKey, json: { model: 'embeddings-v3', input: [text] } })

describe('limit.reached', () => {
  it('is sent once when a monthly limit first refuses, however many requests it refuses, signed', async () => {
    const { secret, admin } = await team('/limit', ['limit.reached'])
    const project = await call('POST', '/v1/organization/projects', { bearer: admin, json: { name: 'p' } })
    const text = 'a request of a known size'
    const perRequest = countTokens(text)
    const key = await call('POST', `/v1/organization/projects/${project.body.id}/api_keys`, {
      bearer: admin,
      json: { name: 'capped', limits: { period: 'month', tokens: 2 * perRequest } },
    })
    const [limit] = key.body.limits
    for (let i = 0; i < 2; i++) expect((await embed(key.body.value, text)).status).toBe(200)
    await deliver()
    expect(receiver.at('/limit')).toHaveLength(0)
    for (let i = 0; i < 3; i++) expect((await embed(key.body.value, text)).status).toBe(402)
    await deliver()
    await deliver()
    const got = receiver.at('/limit')
    expect(got).toHaveLength(1)
    const event = verified(secret, got[0])
    expect(event).toMatchObject({
      type: 'limit.reached',
      data: {
        key_id: key.body.id,
        limit_id: limit.id,
        unit: 'tokens',
        period: 'month',
        amount: 2 * perRequest,
        allowed_tokens: 2 * perRequest,
        period_start: `${new Date().toISOString().slice(0, 7)}-01`,
      },
    })
    // A new limit is a new one to reach: raised, spent past again, it is told of once more.
    const raised = await call('POST', `/v1/organization/projects/${project.body.id}/api_keys/${key.body.id}`, {
      bearer: admin,
      json: { limits: { period: 'month', tokens: 3 * perRequest } },
    })
    expect((await embed(key.body.value, text)).status).toBe(200)
    expect((await embed(key.body.value, text)).status).toBe(402)
    await deliver()
    const again = receiver.at('/limit')
    expect(again).toHaveLength(2)
    expect(verified(secret, again[1]).data).toMatchObject({ limit_id: raised.body.limits[0].id })
  })
})

describe('member.joined', () => {
  it('is sent to the organisation’s endpoint when an invitation is accepted', async () => {
    const { owner, organisation, secret } = await team('/joined', ['member.joined'])
    const invitee = await signedInAccount(database.db, 'invitee')
    const invited = await call('POST', `/api/v1/account/organisations/${organisation.id}/invitations`, {
      ...owner.init,
      json: { email: invitee.email, role: 'developer' },
    })
    expect(invited.status).toBe(200)
    const [mail] = rowsOf<{ text: string }>(
      await database.db.execute(
        sql`select text from email_outbox where "to" = ${invitee.email} and kind = 'organisation_invitation'`,
      ),
    )
    const token = decodeURIComponent(/invitation=(\S+)/.exec(mail.text)![1])
    await deliver()
    expect(receiver.at('/joined')).toHaveLength(0)
    const accepted = await call('POST', '/api/v1/account/organisations/invitations/accept', {
      ...invitee.init,
      json: { token },
    })
    expect(accepted.status).toBe(200)
    await deliver()
    const [got] = receiver.at('/joined')
    expect(verified(secret, got)).toMatchObject({
      type: 'member.joined',
      data: { organisation_id: organisation.id, account_id: invitee.uid },
    })
  })
})
