import { sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { createCheckoutFor } from '~/server/api/payments/checkout'
import { rowsOf } from '~/server/db/rows'
import { memberships } from '~/server/db/schema'
import { bySystem } from '~/server/domain/audit'
import { issueKey } from '~/server/domain/keys'
import { auditLedger } from '~/server/domain/ledger'
import { ensureUser } from '~/server/domain/users'
import { callerOf } from '~/server/http/caller-of'
import { apiDatabase, buildRequest, call, keyWithBalance, scalar, solvedCaptcha } from '../support/api'
import { organisationKey, organisationWithBalance, signedInAccount } from '../support/organisations'
import { card, SANDBOX_SECRET, sandbox } from '../support/payments'
import { outcomeOf } from '../support/outcome'

const database = apiDatabase({ env: { PAYMENTS_SANDBOX_SECRET: SANDBOX_SECRET }, maxConnections: 20 })
const orgs = '/api/v1/account/organisations'
type Account = Awaited<ReturnType<typeof signedInAccount>>
const as = (account: Account, init: Record<string, unknown> = {}) => ({ ...init, ...account.init })

/** The token of the last invitation mailed to `to`, read from the link in its text. */
async function invitationToken(to: string) {
  const [mail] = rowsOf<{ subject: string; text: string }>(
    await database.db.execute(
      sql`select subject, text from email_outbox where "to" = ${to} and kind = 'organisation_invitation' order by created_at desc limit 1`,
    ),
  )
  const link = /https?:\/\/\S+invitation=(\S+)/.exec(mail.text)
  return { mail, token: decodeURIComponent(link![1]) }
}

async function teamOf(owner: Account, name = 'Example Ltd') {
  const made = await call('POST', orgs, as(owner, { json: { name } }))
  expect(made.status).toBe(200)
  return made.body.id as string
}

describe('organisations', () => {
  it('gives every account its personal organisation, once, owned by it and with no shared balance', async () => {
    const account = await signedInAccount(database.db, 'personal')
    await ensureUser(database.db, { uid: account.uid, email: account.email, emailVerified: true })
    const { status, body } = await call('GET', orgs, account.init)
    expect(status).toBe(200)
    expect(body.organisations).toEqual([
      expect.objectContaining({ name: 'Personal', personal: true, role: 'owner', balance: null }),
    ])
    // Its keys are account keys as before: their own balance, in the personal organisation.
    const made = await call('POST', '/api/v1/account/keys', {
      ...account.init,
      json: { name: 'mine', captcha: await solvedCaptcha('new_key') },
    })
    expect(made.status).toBe(200)
    expect(made.body.key.balance).toBeGreaterThan(0)
    // A key made before organisations (none set) is in the personal organisation too.
    const { key: older } = await issueKey(database.db, bySystem, 'empty', { ownerId: account.uid })
    const personal = body.organisations[0].id
    const keys = await call('GET', `${orgs}/${personal}/keys`, account.init)
    expect(keys.body.keys.map((k: { key_id: string }) => k.key_id)).toEqual([made.body.key.key_id, older.id])
    expect(keys.body.keys.every((k: { shared_balance: boolean }) => !k.shared_balance)).toBe(true)
    // It cannot be deleted, invite anyone, or buy for a shared balance it does not have.
    expect((await call('DELETE', `${orgs}/${personal}`, account.init)).status).toBe(409)
    const invite = await call('POST', `${orgs}/${personal}/invitations`, {
      ...account.init,
      json: { email: 'x@example.com', role: 'viewer' },
    })
    expect(invite).toMatchObject({ status: 409, body: { detail: expect.stringMatching(/personal organisation/) } })
    expect((await call('GET', `${orgs}/${personal}/purchases`, account.init)).status).toBe(409)
  })

  it('creates, lists and renames an organisation; its maker is its owner and its balance starts at 0', async () => {
    const owner = await signedInAccount(database.db, 'maker')
    const id = await teamOf(owner)
    const renamed = await call('PATCH', `${orgs}/${id}`, as(owner, { json: { name: 'Renamed Ltd' } }))
    expect(renamed.body).toMatchObject({ id, name: 'Renamed Ltd', role: 'owner', balance: 0, personal: false })
    const { body } = await call('GET', orgs, owner.init)
    expect(body.organisations.map((o: { name: string }) => o.name)).toEqual(['Personal', 'Renamed Ltd'])
    const blank = await call('POST', orgs, as(owner, { json: { name: '  ' } }))
    expect(blank.status).toBe(422)
  })

  it('invites by e-mail with a link that works once, for 7 days, for the invited address only', async () => {
    const owner = await signedInAccount(database.db, 'inviter')
    const id = await teamOf(owner, 'Invites Ltd')
    const invitee = await signedInAccount(database.db, 'invitee')
    const sent = await call(
      'POST',
      `${orgs}/${id}/invitations`,
      as(owner, { json: { email: invitee.email, role: 'billing' } }),
    )
    expect(sent).toMatchObject({ status: 200, body: { email: invitee.email, role: 'billing', status: 'pending' } })
    const days = (Date.parse(sent.body.expires_at) - Date.parse(sent.body.created_at)) / 86_400_000
    expect(days).toBeCloseTo(7, 3)
    const { mail, token } = await invitationToken(invitee.email)
    expect(mail.subject).toContain('Invites Ltd')
    expect(mail.text).toContain('http://localhost:3000/api-dashboard/members?invitation=')
    expect(mail.text).toMatch(/7 days/)

    // Another account, and the invited one with its address unverified, are refused.
    const other = await signedInAccount(database.db, 'other')
    const wrong = await call('POST', `${orgs}/invitations/accept`, as(other, { json: { token } }))
    expect(wrong).toMatchObject({
      status: 409,
      body: { detail: `This invitation is for ${invitee.email}: sign in with that address` },
    })
    await database.db.execute(sql`update users set email_verified = false where uid = ${invitee.uid}`)
    const unverified = await call('POST', `${orgs}/invitations/accept`, as(invitee, { json: { token } }))
    expect(unverified.body.detail).toMatch(/Verify your e-mail address/)
    await database.db.execute(sql`update users set email_verified = true where uid = ${invitee.uid}`)

    // Its holder reads what it offers before accepting (the Members tab's "Join … as …").
    const preview = await call('POST', `${orgs}/invitations/preview`, as(invitee, { json: { token } }))
    expect(preview).toMatchObject({
      status: 200,
      body: { organisation: 'Invites Ltd', role: 'billing', email: invitee.email, expires_at: sent.body.expires_at },
    })
    const bogus = await call('POST', `${orgs}/invitations/preview`, as(invitee, { json: { token: 'x' + token } }))
    expect(bogus).toMatchObject({ status: 409, body: { detail: 'This invitation link is not valid' } })

    const accepted = await call('POST', `${orgs}/invitations/accept`, as(invitee, { json: { token } }))
    expect(accepted).toMatchObject({ status: 200, body: { id, name: 'Invites Ltd', role: 'billing' } })
    const again = await call('POST', `${orgs}/invitations/accept`, as(invitee, { json: { token } }))
    expect(again.body.detail).toBe('This invitation was accepted already')
    const used = await call('POST', `${orgs}/invitations/preview`, as(invitee, { json: { token } }))
    expect(used.body.detail).toBe('This invitation was accepted already')
    const members = await call('GET', `${orgs}/${id}/members`, owner.init)
    expect(members.body.members.map((m: { uid: string; role: string }) => [m.uid, m.role])).toEqual([
      [owner.uid, 'owner'],
      [invitee.uid, 'billing'],
    ])
    const listed = await call('GET', `${orgs}/${id}/invitations`, owner.init)
    expect(listed.body.invitations[0].status).toBe('accepted')

    // A revoked link and an expired one no longer work; an unknown token reads as invalid.
    const late = await signedInAccount(database.db, 'late')
    const revoked = await call(
      'POST',
      `${orgs}/${id}/invitations`,
      as(owner, { json: { email: late.email, role: 'viewer' } }),
    )
    const { token: revokedToken } = await invitationToken(late.email)
    expect((await call('DELETE', `${orgs}/${id}/invitations/${revoked.body.id}`, owner.init)).body.status).toBe(
      'revoked',
    )
    expect(
      (await call('POST', `${orgs}/invitations/accept`, as(late, { json: { token: revokedToken } }))).body.detail,
    ).toBe('This invitation was revoked')
    await call('POST', `${orgs}/${id}/invitations`, as(owner, { json: { email: late.email, role: 'viewer' } }))
    const { token: expiredToken } = await invitationToken(late.email)
    await database.db.execute(
      sql`update invitations set expires_at = now() - interval '1 second' where email = ${late.email} and revoked_at is null`,
    )
    expect(
      (await call('POST', `${orgs}/invitations/accept`, as(late, { json: { token: expiredToken } }))).body.detail,
    ).toMatch(/expired/)
    expect((await call('POST', `${orgs}/invitations/accept`, as(late, { json: { token: 'nonsense' } }))).status).toBe(
      409,
    )
  })

  it('keeps an owner, lets members leave, and ends a removed member’s access at once', async () => {
    const owner = await signedInAccount(database.db, 'keeper')
    const id = await teamOf(owner, 'Owners Ltd')
    const admin = await signedInAccount(database.db, 'admin')
    const dev = await signedInAccount(database.db, 'dev')
    await database.db.insert(memberships).values([
      { organisationId: id, uid: admin.uid, role: 'admin' },
      { organisationId: id, uid: dev.uid, role: 'developer' },
    ])
    // The last owner can neither step down nor leave.
    const down = await call('PATCH', `${orgs}/${id}/members/${owner.uid}`, as(owner, { json: { role: 'admin' } }))
    expect(down).toMatchObject({ status: 409, body: { detail: expect.stringMatching(/at least one owner/) } })
    expect((await call('DELETE', `${orgs}/${id}/members/${owner.uid}`, owner.init)).status).toBe(409)
    // An admin cannot touch an owner.
    const coup = await call('PATCH', `${orgs}/${id}/members/${owner.uid}`, as(admin, { json: { role: 'viewer' } }))
    expect(coup.status).toBe(403)
    // With a second owner, the first may step down.
    expect(
      (await call('PATCH', `${orgs}/${id}/members/${admin.uid}`, as(owner, { json: { role: 'owner' } }))).status,
    ).toBe(200)
    expect(
      (await call('PATCH', `${orgs}/${id}/members/${owner.uid}`, as(owner, { json: { role: 'admin' } }))).body.role,
    ).toBe('admin')

    const key = await call(
      'POST',
      `${orgs}/${id}/keys`,
      as(dev, { json: { name: 'dev key', captcha: await solvedCaptcha('new_key') } }),
    )
    expect(key.status).toBe(200)
    const keyId = key.body.key.key_id
    expect((await call('GET', `/api/v1/account/keys/${keyId}/controls`, dev.init)).status).toBe(200)
    // The developer is removed: the organisation and its keys are no longer theirs to see.
    expect((await call('DELETE', `${orgs}/${id}/members/${dev.uid}`, admin.init)).status).toBe(200)
    expect((await call('GET', `/api/v1/account/keys/${keyId}/controls`, dev.init)).status).toBe(404)
    expect((await call('GET', `${orgs}/${id}/keys`, dev.init)).status).toBe(404)
    expect((await call('GET', orgs, dev.init)).body.organisations.map((o: { id: string }) => o.id)).not.toContain(id)
    // A member leaves by removing themselves.
    const leave = await call('DELETE', `${orgs}/${id}/members/${owner.uid}`, owner.init)
    expect(leave).toMatchObject({ status: 200, body: { detail: 'You left the organisation' } })
  })

  it('groups keys in projects; an archived project takes no new key, and another organisation’s project is not found', async () => {
    const owner = await signedInAccount(database.db, 'projects')
    const id = await teamOf(owner, 'Projects Ltd')
    const project = await call('POST', `${orgs}/${id}/projects`, as(owner, { json: { name: 'Search' } }))
    expect(project).toMatchObject({ status: 200, body: { name: 'Search', archived_at: null } })
    const key = await call(
      'POST',
      `${orgs}/${id}/keys`,
      as(owner, {
        json: { name: 'in project', project_id: project.body.id, captcha: await solvedCaptcha('new_key') },
      }),
    )
    expect(key.body.key).toMatchObject({ project_id: project.body.id, shared_balance: true, balance: 0 })
    const renamed = await call(
      'PATCH',
      `${orgs}/${id}/projects/${project.body.id}`,
      as(owner, { json: { name: 'Search v2' } }),
    )
    expect(renamed.body.name).toBe('Search v2')
    const archived = await call('DELETE', `${orgs}/${id}/projects/${project.body.id}`, owner.init)
    expect(archived.body.archived_at).not.toBeNull()
    const refused = await call(
      'POST',
      `${orgs}/${id}/keys`,
      as(owner, {
        json: { project_id: project.body.id, captcha: await solvedCaptcha('new_key') },
      }),
    )
    expect(refused.status).toBe(409)
    // Out of the project, and back is refused while it is archived.
    const out = await call(
      'PUT',
      `/api/v1/account/keys/${key.body.key.key_id}/project`,
      as(owner, { json: { project_id: null } }),
    )
    expect(out.body.project_id).toBeNull()
    const back = await call(
      'PUT',
      `/api/v1/account/keys/${key.body.key.key_id}/project`,
      as(owner, { json: { project_id: project.body.id } }),
    )
    expect(back.status).toBe(409)
    const elsewhere = await teamOf(owner, 'Other Ltd')
    const foreign = await call(
      'POST',
      `${elsewhere}/projects`.replace(elsewhere, `${orgs}/${elsewhere}`),
      as(owner, { json: { name: 'X' } }),
    )
    const moved = await call(
      'PUT',
      `/api/v1/account/keys/${key.body.key.key_id}/project`,
      as(owner, { json: { project_id: foreign.body.id } }),
    )
    expect(moved.status).toBe(404)
    const listed = await call('GET', `${orgs}/${id}/projects`, owner.init)
    expect(listed.body.projects).toHaveLength(1)
  })

  it('buys for the shared balance, which every key of the organisation spends; usage, purchases and invoices are the organisation’s', async () => {
    const owner = await signedInAccount(database.db, 'buyer')
    const id = await teamOf(owner, 'Shared Ltd')
    const billing = await signedInAccount(database.db, 'finance')
    const viewer = await signedInAccount(database.db, 'viewer')
    await database.db.insert(memberships).values([
      { organisationId: id, uid: billing.uid, role: 'billing' },
      { organisationId: id, uid: viewer.uid, role: 'viewer' },
    ])
    const checkout = await call(
      'POST',
      `${orgs}/${id}/checkout_session`,
      as(billing, { json: { price_id: 'price_tokens_1b' } }),
    )
    expect(checkout.status).toBe(200)
    await sandbox().pay(checkout.body.id, card('succeeds'))
    await sandbox().idle()
    const [organisation] = (await call('GET', orgs, owner.init)).body.organisations.filter(
      (o: { id: string }) => o.id === id,
    )
    expect(organisation.balance).toBe(1_000_000_000)
    const purchases = await call('GET', `${orgs}/${id}/purchases`, billing.init)
    expect(purchases.body.purchases).toEqual([expect.objectContaining({ status: 'paid', tokens: 1_000_000_000 })])
    const invoice = await call('GET', `${orgs}/${id}/invoices/${purchases.body.purchases[0].id}`, billing.init)
    expect(invoice.status).toBe(200)
    expect(invoice.response.headers.get('content-type')).toBe('application/pdf')
    // The viewer sees usage but not the balance's figure.
    const [seen] = (await call('GET', orgs, viewer.init)).body.organisations.filter((o: { id: string }) => o.id === id)
    expect(seen).toMatchObject({ role: 'viewer', balance: null })

    // Two keys, one spending (in a project): both show the shared balance, which the request debited.
    const project = (await call('POST', `${orgs}/${id}/projects`, as(owner, { json: { name: 'Search backend' } }))).body
    const keys = await Promise.all(
      [
        { name: 'a', project_id: project.id },
        { name: 'b', project_id: null },
      ].map(async (input) =>
        call('POST', `${orgs}/${id}/keys`, as(owner, { json: { ...input, captcha: await solvedCaptcha('new_key') } })),
      ),
    )
    const [a, b] = keys.map((k) => k.body)
    const embedded = await call('POST', '/v1/embeddings', {
      bearer: a.api_key,
      json: { model: 'embeddings-v3', input: ['a team spends its shared balance'] },
    })
    expect(embedded.status).toBe(200)
    const spent = embedded.body.usage.total_tokens
    const info = await call('GET', '/api/v1/api_key/fe_user', { bearer: b.api_key })
    expect(info.body.wallet.total_balance).toBe(1_000_000_000 - spent)
    // Spec §6: the keys have the status the balance bought (it is paid).
    expect(info.body.email).toBeTruthy()
    const usage = await call('GET', `${orgs}/${id}/usage_summary`, viewer.init)
    expect(usage.status).toBe(200)
    expect(usage.body.totals.tokens).toBe(spent)
    expect(usage.body.by_key).toEqual([expect.objectContaining({ key_id: a.key.key_id, label: 'a', tokens: spent })])
    expect(usage.body.by_project).toEqual([
      expect.objectContaining({ project_id: project.id, name: 'Search backend', tokens: spent }),
    ])
    expect(usage.body.price).toMatchObject({ purchases: 1 })
    expect(usage.body.totals.cost).not.toBeNull()
    expect(usage.body.balance.current).toBe(1_000_000_000 - spent)
    // The key's own usage (held by the key) is priced at the organisation's purchases too.
    const own = await call('GET', '/api/v1/billing/usage_summary', { bearer: a.api_key })
    expect(own.body.totals.cost).not.toBeNull()
    expect(await auditLedger(database.db)).toEqual([])
  })

  it('refuses billing changes made with a key on a shared balance (REST and server functions alike), and transfers of it', async () => {
    const owner = await signedInAccount(database.db, 'holder')
    const organisation = await organisationWithBalance(database.db, owner.uid, 1000)
    const key = await organisationKey(database.db, organisation)
    const shared = /organisation's shared balance/
    const checkout = await call('POST', '/api/v1/checkout_session', {
      bearer: key.apiKey,
      json: { price_id: 'price_tokens_1b' },
    })
    expect(checkout).toMatchObject({ status: 409, body: { detail: expect.stringMatching(shared) } })
    const details = await call('PUT', '/api/v1/billing/details', {
      bearer: key.apiKey,
      json: { name: 'Example Ltd', address: '1 Example Street\nLondon' },
    })
    expect(details.status).toBe(409)
    const alerts = await call('POST', '/api/v1/billing/balance_notification', {
      bearer: key.apiKey,
      json: { thresholds: [100], email: 'a@example.com' },
    })
    expect(alerts.status).toBe(409)
    // The dashboard's server function calls the same operation with the key it was sent.
    const serverFn = callerOf(buildRequest('POST', '/_serverFn/createCheckout'), key.apiKey)
    expect(await outcomeOf(createCheckoutFor(serverFn, { price_id: 'price_tokens_1b' }))).toBe('SharedBalanceKey')
    // Neither sends nor takes a transfer.
    const own = await keyWithBalance(database.db, 500)
    const out = await call('POST', '/api/v1/billing/transfer_balance', {
      bearer: key.apiKey,
      query: { receiver_key: own.apiKey, revoke_sender_key: 'true' },
      form: { captcha: await solvedCaptcha('transfer_balance') },
    })
    expect(out).toMatchObject({ status: 409, body: { detail: expect.stringMatching(shared) } })
    const into = await call('POST', '/api/v1/billing/transfer_balance', {
      bearer: own.apiKey,
      query: { receiver_key: key.apiKey, revoke_sender_key: 'true' },
      form: { captcha: await solvedCaptcha('transfer_balance') },
    })
    expect(into).toMatchObject({ status: 409, body: { detail: expect.stringMatching(shared) } })
    expect(await scalar(database.db, sql`select balance from api_keys where id = ${own.id}::uuid`)).toBe(500)
    // Nor can someone holding it claim it into their account.
    const claim = await call('POST', '/api/v1/account/keys/claim', {
      ...owner.init,
      json: { api_key: key.apiKey, captcha: await solvedCaptcha('claim_key') },
    })
    expect(claim.status).toBe(403)
  })

  it('deletes an organisation: gone from every list, its keys revoked, its history kept', async () => {
    const owner = await signedInAccount(database.db, 'closer')
    const organisation = await organisationWithBalance(database.db, owner.uid, 1000)
    const key = await organisationKey(database.db, organisation)
    const deleted = await call('DELETE', `${orgs}/${organisation.id}`, owner.init)
    expect(deleted).toMatchObject({ status: 200, body: { detail: 'Organisation deleted' } })
    expect((await call('GET', orgs, owner.init)).body.organisations.map((o: { id: string }) => o.id)).not.toContain(
      organisation.id,
    )
    expect((await call('GET', `${orgs}/${organisation.id}`, owner.init)).status).toBe(404)
    const used = await call('POST', '/v1/embeddings', {
      bearer: key.apiKey,
      json: { model: 'embeddings-v3', input: ['x'] },
    })
    expect(used.status).toBe(401)
    expect(
      await scalar(database.db, sql`select balance from api_keys where id = ${organisation.balanceKeyId}::uuid`),
    ).toBe(1000)
  })
})
