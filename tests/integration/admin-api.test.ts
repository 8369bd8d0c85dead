import { randomUUID } from 'node:crypto'
import { sql } from 'drizzle-orm'
import OpenAI from 'openai'
import { describe, expect, it } from 'vitest'
import { flushRequestLog } from '~/server/api/request-log/writer'
import { bySystem } from '~/server/domain/audit'
import { issueKey } from '~/server/domain/keys'
import { listUsdPerToken } from '~/server/domain/packs'
import { apiDatabase, BASE, call, scalar, send } from '../support/api'
import { organisationKey, organisationWithBalance, signedInAccount } from '../support/organisations'
import { countTokens } from '../support/tokens'

/** The Administration API (`/v1/organization/…`) through the public pipeline, with plain HTTP and the openai SDK. */
// Private networks open so that the refusal loop's webhook endpoint may name loopback.
const database = apiDatabase({ env: { WEBHOOKS_ALLOW_PRIVATE_NETWORKS: 'true' } })
const org = '/v1/organization'

const viaHandler = (url: RequestInfo | URL, init?: RequestInit) => send(new Request(url, init))
const sdk = (adminAPIKey: string) =>
  new OpenAI({ adminAPIKey, baseURL: `${BASE}/v1`, fetch: viaHandler, maxRetries: 0 })

/** A team with a shared balance, its owner, and an admin key the owner made through the session route. */
async function team(balance = 1_000_000) {
  const owner = await signedInAccount(database.db, 'owner')
  const organisation = await organisationWithBalance(database.db, owner.uid, balance)
  const made = await call('POST', '/api/v1/account/admin_keys', {
    ...owner.init,
    json: { organisation_id: organisation.id, name: 'automation' },
  })
  expect(made.status).toBe(200)
  return { owner, organisation, admin: made.body.value as string, adminKeyId: made.body.id as string }
}

async function member(organisationId: string, role: string) {
  const who = await signedInAccount(database.db, role)
  await database.db.execute(
    sql`insert into memberships (organisation_id, uid, role) values (${organisationId}::uuid, ${who.uid}, ${role})`,
  )
  return who
}

const embed = (apiKey: string, text: string) =>
  call('POST', '/v1/embeddings', { bearer: apiKey, json: { model: 'embeddings-v3', input: [text] } })

const consumed = (keyId: string) =>
  scalar(
    database.db,
    sql`select coalesce(-sum(amount), 0) from ledger_entries where key_id = ${keyId}::uuid
      and (type = 'consume' or (type = 'adjustment' and external_ref like 'usage-reversal:%'))`,
  )

describe('admin keys through a session', () => {
  it('are made by an owner only, shown once, listed redacted, revoked and audited', async () => {
    const { owner, organisation, admin, adminKeyId } = await team()
    expect(admin).toMatch(/^sk-admin-[A-Za-z0-9_-]{43}$/)
    const list = await call('GET', '/api/v1/account/admin_keys', {
      ...owner.init,
      query: { organisation_id: organisation.id },
    })
    expect(list.body.data).toEqual([
      expect.objectContaining({ id: adminKeyId, name: 'automation', redacted_value: `sk-admin-…${admin.slice(-4)}` }),
    ])
    expect(JSON.stringify(list.body)).not.toContain(admin)
    const stored = await scalar(database.db, sql`select count(*) from admin_keys where key_hash = ${admin}`)
    expect(stored).toBe(0)

    // An admin of the organisation (not an owner) may neither make nor see them; a stranger reads 404.
    const adminMember = await member(organisation.id, 'admin')
    const byAdmin = await call('POST', '/api/v1/account/admin_keys', {
      ...adminMember.init,
      json: { organisation_id: organisation.id, name: 'mine' },
    })
    expect(byAdmin.status).toBe(403)
    const stranger = await signedInAccount(database.db, 'stranger')
    expect((await call('DELETE', `/api/v1/account/admin_keys/${adminKeyId}`, stranger.init)).status).toBe(404)

    const listed = await call('GET', `${org}/projects`, { bearer: admin })
    expect(listed.status).toBe(200)
    // Counted against a per-minute limit of its own, as a paid key is.
    expect(listed.response.headers.get('x-ratelimit-limit-requests')).toBe('1200')
    const revoked = await call('DELETE', `/api/v1/account/admin_keys/${adminKeyId}`, owner.init)
    expect(revoked.body.revoked_at).toEqual(expect.any(Number))
    const refused = await call('GET', `${org}/projects`, { bearer: admin })
    expect(refused.status).toBe(401)
    expect(refused.body.error).toMatchObject({ type: 'authentication_error', code: 'invalid_api_key' })
    const actions = await database.db.execute(
      sql`select action from audit_log where details->>'admin_key_id' = ${adminKeyId} order by id`,
    )
    expect((actions as unknown as { rows?: unknown[] }).rows ?? actions).toEqual([
      { action: 'admin_key.created' },
      { action: 'admin_key.revoked' },
    ])
  })
})

describe('the Administration API', () => {
  it('makes a project and a key with a monthly token limit; usage by key and model agrees with the ledger', async () => {
    const { organisation, admin } = await team()
    const start = Math.floor(Date.now() / 1000) - 60
    // The openai SDK's admin calls: a project made and listed with `client.admin.organization`.
    const client = sdk(admin)
    const project = await client.admin.organization.projects.create({ name: 'search' })
    expect(project).toMatchObject({ object: 'organization.project', name: 'search', status: 'active' })
    const listed = await client.admin.organization.projects.list()
    expect(listed.data.map((p) => p.id)).toEqual([project.id])

    const text = 'a request of a known size'
    const perRequest = countTokens(text)
    const made = await call('POST', `${org}/projects/${project.id}/api_keys`, {
      bearer: admin,
      json: { name: 'capped', limits: { period: 'month', tokens: 3 * perRequest } },
    })
    expect(made.status).toBe(200)
    expect(made.body).toMatchObject({ project_id: project.id, limits: [{ period: 'month', tokens: 3 * perRequest }] })
    const capped = { apiKey: made.body.value as string, id: made.body.id as string }
    for (let i = 0; i < 3; i++) expect((await embed(capped.apiKey, text)).status).toBe(200)
    const refused = await embed(capped.apiKey, text)
    expect(refused.status).toBe(402)
    expect(refused.body.error).toMatchObject({ code: 'insufficient_quota' })
    // A key outside the project, in the same organisation, spends too.
    const other = await organisationKey(database.db, organisation)
    expect((await embed(other.apiKey, 'another text entirely, somewhat longer than the first')).status).toBe(200)
    await flushRequestLog()

    const query = { start_time: String(start), end_time: String(start + 3600), bucket_width: '1h' }
    const usage = await call('GET', `${org}/usage/embeddings`, {
      bearer: admin,
      query: { ...query, group_by: ['api_key_id', 'model'] },
    })
    expect(usage.status).toBe(200)
    expect(usage.body).toMatchObject({ object: 'page', has_more: false, next_page: null })
    const results = usage.body.data.flatMap((b: { results: unknown[] }) => b.results)
    expect(results).toHaveLength(2)
    for (const key of [capped, other])
      expect(results.find((r: { api_key_id: string }) => r.api_key_id === key.id)).toMatchObject({
        object: 'organization.usage.embeddings.result',
        model: 'embeddings-v3',
        input_tokens: await consumed(key.id),
        num_model_requests: key === capped ? 3 : 1,
      })
    expect(await consumed(capped.id)).toBe(3 * perRequest)

    // The SDK reads the same, grouped by project (its `group_by[]=` form).
    const bySdk = await client.admin.organization.usage.embeddings({
      start_time: start,
      end_time: start + 3600,
      bucket_width: '1h',
      group_by: ['project_id'],
    })
    const projects = bySdk.data.flatMap((b) => b.results) as Array<{ project_id: string | null; input_tokens: number }>
    expect(projects.find((r) => r.project_id === project.id)?.input_tokens).toBe(3 * perRequest)
    expect(projects.find((r) => r.project_id === null)?.input_tokens).toBe(await consumed(other.id))

    const costs = await call('GET', `${org}/costs`, { bearer: admin, query: { start_time: String(start) } })
    const total = (await consumed(capped.id)) + (await consumed(other.id))
    const amounts = costs.body.data.flatMap((b: { results: Array<{ amount: { value: number } }> }) => b.results)
    expect(amounts).toHaveLength(1)
    expect(amounts[0].amount.value).toBeCloseTo(total * listUsdPerToken(), 6)

    // Raising the limit lets the key spend again; the audit log names the admin key that did it.
    const raised = await call('POST', `${org}/projects/${project.id}/api_keys/${capped.id}`, {
      bearer: admin,
      json: { limits: { period: 'month', tokens: 10 * perRequest } },
    })
    expect(raised.body.limits).toEqual([
      expect.objectContaining({ tokens: 10 * perRequest, used_tokens: 3 * perRequest }),
    ])
    expect((await embed(capped.apiKey, text)).status).toBe(200)
    const audit = await call('GET', `${org}/audit_logs`, { bearer: admin, query: { limit: '100' } })
    expect(audit.body.data.map((e: { type: string }) => e.type)).toEqual(
      expect.arrayContaining(['project.created', 'key.created', 'key.limit_added', 'key.limit_removed']),
    )
    const projectMade = audit.body.data.find((e: { type: string }) => e.type === 'project.created')
    expect(projectMade.actor.type).toBe('api_key')
  })

  it('manages members and invitations', async () => {
    const { organisation, admin } = await team()
    const dev = await member(organisation.id, 'developer')
    const users = await call('GET', `${org}/users`, { bearer: admin, query: { limit: '1' } })
    expect(users.body).toMatchObject({ object: 'list', has_more: true, data: [{ role: 'owner' }] })
    const next = await call('GET', `${org}/users`, { bearer: admin, query: { after: users.body.last_id } })
    expect(next.body.data).toEqual([expect.objectContaining({ id: dev.uid, role: 'developer' })])
    const changed = await call('POST', `${org}/users/${dev.uid}`, { bearer: admin, json: { role: 'viewer' } })
    expect(changed.body).toMatchObject({ object: 'organization.user', role: 'viewer' })
    const removed = await call('DELETE', `${org}/users/${dev.uid}`, { bearer: admin })
    expect(removed.body).toEqual({ object: 'organization.user.deleted', id: dev.uid, deleted: true })
    expect((await call('GET', `${org}/users/${dev.uid}`, { bearer: admin })).status).toBe(404)

    const invited = await call('POST', `${org}/invites`, {
      bearer: admin,
      json: { email: 'new@example.com', role: 'developer' },
    })
    expect(invited.body).toMatchObject({ object: 'organization.invite', status: 'pending', email: 'new@example.com' })
    const got = await call('GET', `${org}/invites/${invited.body.id}`, { bearer: admin })
    expect(got.body.id).toBe(invited.body.id)
    expect((await call('DELETE', `${org}/invites/${invited.body.id}`, { bearer: admin })).body.deleted).toBe(true)
    expect((await call('GET', `${org}/invites/${invited.body.id}`, { bearer: admin })).body.status).toBe('revoked')
  })
})

describe("an admin key reaches its own organisation's items only", () => {
  it("reads another organisation's project, key and member as not found, and none of its usage", async () => {
    const mine = await team()
    const theirs = await team()
    const project = (await call('POST', `${org}/projects`, { bearer: theirs.admin, json: { name: 'theirs' } })).body
    const key = (
      await call('POST', `${org}/projects/${project.id}/api_keys`, { bearer: theirs.admin, json: { name: 'k' } })
    ).body
    expect((await embed(key.value, 'their spend')).status).toBe(200)
    for (const path of [
      `${org}/projects/${project.id}`,
      `${org}/projects/${project.id}/api_keys`,
      `${org}/projects/${project.id}/api_keys/${key.id}`,
      `${org}/users/${theirs.owner.uid}`,
    ])
      expect((await call('GET', path, { bearer: mine.admin })).status).toBe(404)
    const revoke = await call('DELETE', `${org}/projects/${project.id}/api_keys/${key.id}`, { bearer: mine.admin })
    expect(revoke.status).toBe(404)
    expect((await embed(key.value, 'still theirs')).status).toBe(200)
    const start = String(Math.floor(Date.now() / 1000) - 60)
    const usage = await call('GET', `${org}/usage/embeddings`, { bearer: mine.admin, query: { start_time: start } })
    expect(usage.body.data.flatMap((b: { results: unknown[] }) => b.results)).toEqual([])
  })
})

describe('who the Administration API refuses', () => {
  /** Every route, with a body that would succeed for the owner's admin key. */
  async function routes(admin: string) {
    const project = (await call('POST', `${org}/projects`, { bearer: admin, json: { name: 'p' } })).body.id
    const key = (await call('POST', `${org}/projects/${project}/api_keys`, { bearer: admin, json: { name: 'k' } })).body
      .id
    const invite = (
      await call('POST', `${org}/invites`, { bearer: admin, json: { email: 'x@example.com', role: 'viewer' } })
    ).body.id
    const user = (await call('GET', `${org}/users`, { bearer: admin })).body.data[0].id
    const usage = { start_time: String(Math.floor(Date.now() / 1000) - 60) }
    const hook = { url: 'http://127.0.0.1:9/hook', events: ['key.revoked'] }
    const webhook = (await call('POST', `${org}/webhooks`, { bearer: admin, json: hook })).body.id
    const delivery = randomUUID()
    return [
      ['GET', `${org}/users`],
      ['GET', `${org}/users/${user}`],
      ['POST', `${org}/users/${user}`, { role: 'owner' }],
      ['DELETE', `${org}/users/${user}`],
      ['GET', `${org}/invites`],
      ['POST', `${org}/invites`, { email: 'y@example.com', role: 'viewer' }],
      ['GET', `${org}/invites/${invite}`],
      ['DELETE', `${org}/invites/${invite}`],
      ['GET', `${org}/projects`],
      ['POST', `${org}/projects`, { name: 'q' }],
      ['GET', `${org}/projects/${project}`],
      ['POST', `${org}/projects/${project}`, { name: 'r' }],
      ['POST', `${org}/projects/${project}/archive`],
      ['GET', `${org}/projects/${project}/api_keys`],
      ['POST', `${org}/projects/${project}/api_keys`, { name: 'k2' }],
      ['GET', `${org}/projects/${project}/api_keys/${key}`],
      ['POST', `${org}/projects/${project}/api_keys/${key}`, { limits: null }],
      ['DELETE', `${org}/projects/${project}/api_keys/${key}`],
      ...['embeddings', 'rerank', 'reader', 'deepsearch', 'classify', 'bulk_embeddings'].map((p) => [
        'GET',
        `${org}/usage/${p}`,
        undefined,
        usage,
      ]),
      ['GET', `${org}/costs`, undefined, usage],
      ['GET', `${org}/audit_logs`],
      ['GET', `${org}/webhooks`],
      ['POST', `${org}/webhooks`, hook],
      ['GET', `${org}/webhooks/${webhook}`],
      ['POST', `${org}/webhooks/${webhook}`, { disabled: true }],
      ['DELETE', `${org}/webhooks/${webhook}`],
      ['POST', `${org}/webhooks/${webhook}/rotate_secret`],
      ['GET', `${org}/webhooks/${webhook}/deliveries`],
      ['POST', `${org}/webhooks/${webhook}/deliveries/${delivery}/replay`],
    ] as Array<[string, string, unknown?, Record<string, string>?]>
  }

  it('refuses a trial key, an ordinary key, a member session without the role and a revoked admin key on every route', async () => {
    const { owner, organisation, admin } = await team()
    const list = await routes(admin)
    const documented = (await call('GET', '/api/v1/openapi.json')).body.paths as Record<string, object>
    const paths = Object.entries(documented).flatMap(([path, item]) =>
      path.startsWith(`${org}/`) ? Object.keys(item).map((m) => `${m.toUpperCase()} ${path}`) : [],
    )
    // The loop covers every documented Administration route.
    expect(paths.length).toBe(list.length)

    const { apiKey: trial } = await issueKey(database.db, bySystem, 'trial')
    const ordinary = (await organisationKey(database.db, organisation)).apiKey
    const viewer = await member(organisation.id, 'viewer')
    // A second admin key, then revoked; the demoted maker's key is refused with 403.
    const spare = await call('POST', '/api/v1/account/admin_keys', {
      ...owner.init,
      json: { organisation_id: organisation.id, name: 'spare' },
    })
    await call('DELETE', `/api/v1/account/admin_keys/${spare.body.id}`, owner.init)
    const before = await scalar(database.db, sql`select count(*) from audit_log`)
    const callers: Array<[string, { bearer?: string; headers?: Record<string, string> }, number]> = [
      ['trial key', { bearer: trial }, 401],
      ['ordinary key', { bearer: ordinary }, 401],
      ['viewer session', viewer.init, 401],
      ['owner session without an admin key', owner.init, 401],
      ['revoked admin key', { bearer: spare.body.value }, 401],
    ]
    for (const [who, init, status] of callers)
      for (const [method, path, json, query] of list) {
        const answer = await call(method, path, { ...init, json, query })
        expect({ who, method, path, status: answer.status }).toEqual({ who, method, path, status })
        expect(answer.body.error.type).toBe('authentication_error')
      }
    // Nothing was done by any of them.
    expect(await scalar(database.db, sql`select count(*) from audit_log`)).toBe(before)
  })

  it('refuses an admin key whose maker is no longer an owner or admin', async () => {
    const { owner, organisation, admin } = await team()
    const list = await routes(admin)
    const second = await member(organisation.id, 'owner')
    await database.db.execute(
      sql`update memberships set role = 'developer' where uid = ${owner.uid} and organisation_id = ${organisation.id}::uuid`,
    )
    expect(second.uid).not.toBe(owner.uid)
    for (const [method, path, json, query] of list) {
      const answer = await call(method, path, { bearer: admin, json, query })
      expect({ method, path, status: answer.status }).toEqual({ method, path, status: 403 })
      expect(answer.body.error.type).toBe('permission_error')
    }
  })
})
