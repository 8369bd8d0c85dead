import { randomUUID } from 'node:crypto'
import { sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { rowsOf } from '~/server/db/rows'
import { bySystem } from '~/server/domain/audit'
import { issueKey } from '~/server/domain/keys'
import { closeSession, openSession } from '~/server/domain/sessions'
import { transferBalance } from '~/server/domain/transfers'
import { ensureUser } from '~/server/domain/users'
import { writeObject } from '~/server/providers/payments/sandbox/store'
import { apiDatabase, call, keyWithBalance, respond, solvedCaptcha } from '../support/api'
import { SANDBOX_SECRET, signedEvent, startCheckout } from '../support/payments'

const database = apiDatabase({ env: { PAYMENTS_SANDBOX_SECRET: SANDBOX_SECRET } })

const auditRows = async (where: ReturnType<typeof sql>) =>
  rowsOf<Record<string, any>>(await database.db.execute(sql`select * from audit_log where ${where} order by id`))

async function account() {
  const uid = `audit-${randomUUID()}`
  await ensureUser(database.db, { uid, email: `${uid}@example.com` })
  const { token } = await openSession(database.db, bySystem, uid, 1)
  const { apiKey, key } = await issueKey(database.db, bySystem, 'empty', { ownerId: uid, name: 'first' })
  return { uid, token, apiKey, key, cookie: { cookie: `session=${token}` } }
}

describe('the audit log', () => {
  it('records each change with its actor, client address and request id', async () => {
    const { uid, apiKey, key, cookie } = await account()
    const renamed = await call('PATCH', `/api/v1/account/keys/${key.id}`, {
      json: { name: 'production' },
      headers: { ...cookie, 'x-request-id': 'audit-rename-1' },
      address: '198.51.100.23',
    })
    expect(renamed.status).toBe(200)
    const alerts = await call('POST', '/api/v1/billing/balance_notification', {
      bearer: apiKey,
      json: { thresholds: [1000, 500], email: 'ops@example.com' },
      headers: { 'x-request-id': 'audit-alerts-1' },
    })
    expect(alerts.status).toBe(200)

    const rows = await auditRows(sql`account_id = ${uid}`)
    expect(rows.map((r) => r.action)).toEqual(['session.opened', 'key.created', 'key.named', 'alerts.changed'])
    expect(rows[2]).toMatchObject({
      key_id: key.id,
      actor: `user:${uid}`,
      client_address: '198.51.100.23',
      request_id: 'audit-rename-1',
      details: { name: 'production' },
    })
    expect(rows[3]).toMatchObject({
      actor: `key:${key.prefix}…${key.last4}`,
      request_id: 'audit-alerts-1',
      details: { thresholds: '500 1000' },
    })
    // Nothing secret is kept: no key, no session token.
    expect(JSON.stringify(rows)).not.toContain(apiKey)
  })

  it('names a visitor taking a trial key by its address, and the payment service for what its webhook credits', async () => {
    const trial = await call('POST', '/api/v1/api_key/trial', {
      form: { captcha: await solvedCaptcha('new_key') },
      headers: { 'x-request-id': 'audit-trial-1' },
      address: '198.51.100.41',
    })
    expect(trial.status).toBe(200)
    expect(
      (await auditRows(sql`request_id = 'audit-trial-1'`)).map((r) => [r.action, r.actor, r.client_address]),
    ).toEqual([['key.created', 'visitor', '198.51.100.41']])

    // A checkout the sandbox holds as paid, credited by the service's event: by `payments`, in the webhook's
    // request, with no address (the service's is nobody's the account knows).
    const buyer = await keyWithBalance(database.db, 5)
    const session = await startCheckout(buyer.apiKey)
    const [stored] = rowsOf<{ data: Record<string, unknown> }>(
      await database.db.execute(sql`select data from sandbox_objects where id = ${session}`),
    )
    await writeObject(database.db, { ...stored.data, status: 'complete', payment_status: 'paid' } as never)
    const event = signedEvent('checkout.session.completed', { id: session })
    const delivered = await call('POST', '/api/v1/billing/webhook/stripe', {
      body: event.payload,
      headers: {
        'content-type': 'application/json',
        'stripe-signature': event.signature,
        'x-request-id': 'audit-hook-1',
      },
      address: '198.51.100.42',
    })
    expect(delivered.status).toBe(200)
    expect(await auditRows(sql`key_id = ${buyer.id}::uuid and action = 'purchase.credited'`)).toEqual([
      expect.objectContaining({ actor: 'payments', client_address: null, request_id: 'audit-hook-1' }),
    ])
  })

  it('writes the row in the same transaction as the change: one without the other never commits', async () => {
    const { uid, key, cookie } = await account()
    // A refused change writes no row.
    const stranger = await account()
    const refused = await call('PATCH', `/api/v1/account/keys/${stranger.key.id}`, {
      json: { name: 'stolen' },
      headers: cookie,
    })
    expect(refused.status).toBe(404)
    expect(await auditRows(sql`key_id = ${stranger.key.id}::uuid and action = 'key.named'`)).toEqual([])

    // An audit row the database refuses takes the change with it.
    await database.db.execute(
      sql`alter table audit_log add constraint no_renames check (action <> 'key.named') not valid`,
    )
    try {
      const failed = await call('PATCH', `/api/v1/account/keys/${key.id}`, {
        json: { name: 'never saved' },
        headers: cookie,
      })
      expect(failed.status).toBe(500)
    } finally {
      await database.db.execute(sql`alter table audit_log drop constraint no_renames`)
    }
    const [row] = rowsOf<{ name: string }>(
      await database.db.execute(sql`select name from api_keys where id = ${key.id}::uuid`),
    )
    expect(row.name).toBe('first')
    expect(await auditRows(sql`account_id = ${uid} and action = 'key.named'`)).toEqual([])
  })

  it('records transfers on both keys, the revocation, and sessions ended', async () => {
    const { uid, token, key } = await account()
    const other = await issueKey(database.db, bySystem, 'trial')
    await transferBalance(database.db, bySystem, other.key.id, key.id)
    expect((await auditRows(sql`key_id = ${other.key.id}::uuid`)).map((r) => r.action)).toEqual([
      'key.created',
      'key.transferred_out',
      'key.revoked',
    ])
    expect((await auditRows(sql`key_id = ${key.id}::uuid and action = 'key.transferred_in'`))[0].details).toMatchObject(
      {
        from: other.key.id,
        tokens: 10_000_000,
      },
    )
    await closeSession(database.db, bySystem, token)
    expect((await auditRows(sql`account_id = ${uid}`)).at(-1)).toMatchObject({
      action: 'session.revoked',
      details: { reason: 'sign_out' },
    })
  })

  it("shows the owner the account's events and a key holder only the key's, and exports them", async () => {
    const { apiKey, key, cookie } = await account()
    const withSession = await call('GET', '/api/v1/audit', { bearer: apiKey, headers: cookie })
    expect(withSession.body.scope).toBe('account')
    expect(withSession.body.events.map((e: { action: string }) => e.action)).toEqual(['key.created', 'session.opened'])
    const keyOnly = await call('GET', '/api/v1/audit', { bearer: apiKey })
    expect(keyOnly.body.scope).toBe('key')
    expect(keyOnly.body.events.map((e: { action: string }) => e.action)).toEqual(['key.created'])
    const paged = await call('GET', '/api/v1/audit', {
      bearer: apiKey,
      headers: cookie,
      query: { num_records: '1' },
    })
    const next = await call('GET', '/api/v1/audit', {
      bearer: apiKey,
      headers: cookie,
      query: { num_records: '1', cursor: paged.body.next_cursor },
    })
    expect(next.body.events.map((e: { action: string }) => e.action)).toEqual(['session.opened'])

    const csv = await respond('GET', '/api/v1/audit/export', { bearer: apiKey, headers: cookie })
    const lines = (await csv.text()).trimEnd().split('\r\n')
    expect(lines[0]).toBe('id,created_at,action,key_id,actor,client_address,request_id,details')
    expect(lines).toHaveLength(3)
    const json = await respond('GET', '/api/v1/audit/export', {
      bearer: apiKey,
      query: { format: 'json' },
    })
    expect(JSON.parse(await json.text())).toEqual([expect.objectContaining({ action: 'key.created', key_id: key.id })])
  })
})
