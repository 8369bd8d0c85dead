import { rmSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runWebhooks, webhooksIdle } from '~/server/api/webhooks/worker'
import { apiDatabase, call } from '../support/api'
import { organisationKey, organisationWithBalance, signedInAccount } from '../support/organisations'
import { startReceiver, verified, type Receiver } from '../support/webhook-receiver'

/** Endpoints belong to organisations: a key's events go to its organisation's endpoints and no other's. */
const dataDir = `tests/.tmp/webhooks-orgs-${process.pid}`
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

describe('webhooks of organisations', () => {
  it("sends a key of organisation A's event to A's endpoint and not to B's", async () => {
    const alice = await signedInAccount(database.db, 'alice')
    const bob = await signedInAccount(database.db, 'bob')
    const a = await organisationWithBalance(database.db, alice.uid, 0, 'A')
    const b = await organisationWithBalance(database.db, bob.uid, 0, 'B')
    const made = async (who: typeof alice, organisation_id: string, path: string) => {
      const answer = await call('POST', '/api/v1/account/webhooks', {
        ...who.init,
        json: { url: receiver.url(path), events: ['key.created'], organisation_id },
      })
      expect(answer.status).toBe(200)
      return answer.body.secret as string
    }
    const secretA = await made(alice, a.id, '/org-a')
    await made(bob, b.id, '/org-b')
    // Bob is not in A: its endpoints are not his to list or make.
    const foreign = await call('GET', `/api/v1/account/webhooks?organisation_id=${a.id}`, bob.init)
    expect(foreign.status).toBe(404)

    const key = await organisationKey(database.db, a)
    await deliver()
    expect(receiver.at('/org-b')).toHaveLength(0)
    const [got] = receiver.at('/org-a')
    expect(verified(secretA, got)).toMatchObject({ type: 'key.created', data: { key_id: key.id } })
  })
})
