import { randomUUID } from 'node:crypto'
import { rmSync } from 'node:fs'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { flushRequestLog } from '~/server/api/request-log/writer'
import { getRouter } from '~/router'
import { rowsOf } from '~/server/db/rows'
import { bySystem } from '~/server/domain/audit'
import { displayKey, issueKey } from '~/server/domain/keys'
import { openSession } from '~/server/domain/sessions'
import { ensureUser } from '~/server/domain/users'
import { createOrganisation, ensurePersonalOrganisation } from '~/server/domain/organisations'
import { apiDatabase, call, type CallInit } from '../support/api'
import { drainQueue, upload, uploadForm } from '../support/bulk'
import { buyPack, sandbox, SANDBOX_SECRET } from '../support/payments'

/**
 * Every GET of the API that answers an owner's data, asked by strangers: a stranger's key (no account), a
 * stranger's session with its own key, and that session alone. Each must see its own rows and nothing of
 * anyone else's. The routes are read from the route files, so a new one fails here until it is listed.
 */
const dataDir = `tests/.tmp/owner-lists-${process.pid}`
const database = apiDatabase({
  env: {
    DATA_DIR: dataDir,
    JOB_WORKER: 'off',
    PAYMENTS_SANDBOX_SECRET: SANDBOX_SECRET,
    WEBHOOKS_ALLOW_PRIVATE_NETWORKS: 'true',
  },
  maxConnections: 30,
})
afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

type Handler = { spec?: { auth: string } }
/** Every route of the app's tree with a GET handler: its path as the router serves it ($params kept), and its auth. */
const gets = Object.values(getRouter().routesById).flatMap((route) => {
  const handlers = (route.options as { server?: { handlers?: unknown } }).server?.handlers
  const handler = (handlers as Record<string, Handler> | undefined)?.GET
  const path = route.fullPath.replace(/(.)\/$/, '$1')
  if (!handler?.spec || !/^\/(api\/)?v1\//.test(path)) return []
  return [{ path, auth: handler.spec.auth }]
})

interface Principal {
  name: string
  uid?: string
  cookie?: string
  apiKey: string
  keyIds: string[]
  /** Strings only this principal's data holds: a row of it in another's answer is a leak. */
  markers: string[]
  /** Row ids (numeric ones too) of what it owns, per kind. */
  own: Record<
    | 'entries'
    | 'purchases'
    | 'classifiers'
    | 'jobs'
    | 'requests'
    | 'audit'
    | 'keys'
    | 'files'
    | 'batches'
    | 'webhooks'
    | 'deliveries',
    string[]
  >
  consumed: number
  /** Its organisations (personal and a team), for probing them by id; none without an account. */
  organisations: string[]
}

/** A holder with one of everything the lists show: a purchase, a request, a classifier, a bulk job, alerts, details. */
async function principal(name: string, account: boolean): Promise<Principal> {
  const db = database.db
  const tag = `${name}-${randomUUID().slice(0, 8)}`
  let uid: string | undefined
  let cookie: string | undefined
  const organisations: string[] = []
  if (account) {
    uid = `uid-${tag}`
    await ensureUser(db, { uid, email: `${tag}@example.com` })
    cookie = `session=${(await openSession(db, bySystem, uid, 1)).token}`
    organisations.push(await ensurePersonalOrganisation(db, uid))
    organisations.push((await createOrganisation(db, bySystem, uid, `${tag} team`)).id)
  }
  const { apiKey, key } = await issueKey(db, bySystem, 'trial', { ownerId: uid, name: `${tag} key` })
  const bearer = { bearer: apiKey }
  const { session } = await buyPack(apiKey)
  await sandbox().idle()
  const requestId = `${tag}-request`
  const embedded = await call('POST', '/v1/embeddings', {
    ...bearer,
    headers: { 'x-request-id': requestId },
    json: { model: 'embeddings-v3', input: [`a text of ${tag}`] },
  })
  expect(embedded.status).toBe(200)
  const trained = await call('POST', '/v1/train', {
    ...bearer,
    json: { model: 'embeddings-v3', input: [{ text: `news of ${tag}`, label: 'news' }] },
  })
  expect(trained.status).toBe(200)
  const job = await upload(apiKey, uploadForm('texts.txt', `one of ${tag}\ntwo of ${tag}`, { model: 'embeddings-v3' }))
  expect(job.status).toBe(200)
  const form = new FormData()
  form.append('purpose', 'batch')
  const request = {
    custom_id: tag,
    method: 'POST',
    url: '/v1/embeddings',
    body: { model: 'embeddings-v3', input: tag },
  }
  form.append('file', new Blob([JSON.stringify(request) + '\n']), `${tag}.jsonl`)
  const encoded = new Response(form)
  const file = await call('POST', '/v1/files', {
    ...bearer,
    headers: { 'content-type': encoded.headers.get('content-type')! },
    body: await encoded.blob(),
  })
  expect(file.status).toBe(200)
  const batch = await call('POST', '/v1/batches', {
    ...bearer,
    json: { input_file_id: file.body.id, endpoint: '/v1/embeddings', completion_window: '24h' },
  })
  expect(batch.status).toBe(200)
  await drainQueue(db)
  const batchDone = await call('GET', `/v1/batches/${batch.body.id}`, bearer)
  expect(batchDone.body.status).toBe('completed')
  const alertsTo = `${tag}-alerts@example.com`
  const alerts = await call('POST', '/api/v1/billing/balance_notification', {
    ...bearer,
    json: { thresholds: [1000], email: alertsTo },
  })
  expect(alerts.status).toBe(200)
  const billingName = `Billing ${tag}`
  const details = await call('PUT', '/api/v1/billing/details', {
    ...bearer,
    json: { name: billingName, address: `1 ${tag} Street` },
  })
  expect(details.status).toBe(200)

  let webhook: { id: string; delivery: string } | undefined
  if (cookie) {
    const created = await call('POST', '/api/v1/account/webhooks', {
      headers: { cookie },
      json: { url: `http://127.0.0.1:9/${tag}`, events: ['key.created'], description: tag },
    })
    expect(created.status).toBe(200)
    const tested = await call('POST', `/api/v1/account/webhooks/${created.body.id}/test`, { headers: { cookie } })
    expect(tested.status).toBe(200)
    webhook = { id: created.body.id, delivery: tested.body.id }
  }

  await flushRequestLog()
  const ids = async (query: ReturnType<typeof sql>) =>
    rowsOf<{ id: string | number }>(await db.execute(query)).map((row) => String(row.id))
  const purchases = rowsOf<{ id: string; payment_intent_id: string }>(
    await db.execute(sql`select id, payment_intent_id from purchases where key_id = ${key.id}::uuid`),
  )
  expect(purchases.every((p) => p.payment_intent_id)).toBe(true)
  const [{ consumed }] = rowsOf<{ consumed: string }>(
    await db.execute(
      sql`select -coalesce(sum(amount), 0) as consumed from ledger_entries where key_id = ${key.id}::uuid and type = 'consume'`,
    ),
  )
  return {
    name,
    uid,
    cookie,
    apiKey,
    keyIds: [key.id],
    markers: [
      apiKey,
      key.id,
      displayKey(key),
      tag,
      ...(uid ? [uid] : []),
      session,
      ...purchases.flatMap((p) => [p.id, p.payment_intent_id]),
      trained.body.classifier_id,
      job.body.id,
      file.body.id,
      batch.body.id,
      batchDone.body.output_file_id,
      ...(webhook ? [webhook.id, webhook.delivery] : []),
    ],
    own: {
      entries: await ids(sql`select id from ledger_entries where key_id = ${key.id}::uuid`),
      purchases: purchases.map((p) => p.id),
      classifiers: [trained.body.classifier_id],
      jobs: [job.body.id],
      requests: await ids(sql`select id from request_log where key_id = ${key.id}::uuid`),
      audit: [],
      keys: [key.id],
      files: [file.body.id, batchDone.body.output_file_id],
      batches: [batch.body.id],
      webhooks: webhook ? [webhook.id] : [],
      deliveries: webhook ? [webhook.delivery] : [],
    },
    consumed: Number(consumed),
    organisations,
  }
}

/** A list's row ids in its answer, and which of the principal's own ids they must come from. */
type Rows = { of: keyof Principal['own']; ids: (body: any) => string[] }
interface Probe {
  query?: Record<string, string>
  rows?: Rows
  /** The answer's totals must be the caller's own. */
  totals?: (body: any, caller: Principal) => void
  /** What a caller without the credential is answered (default 401). */
  refused?: number
  /** Asked about the victim's row by id (path parameter or query): refused, whoever asks. */
  victims?: Array<(victim: Principal) => { params?: Record<string, string>; query?: CallInit['query'] }>
}

/** An organisation of the victim's by id: its personal one and its team. */
const organisationVictims: Probe['victims'] = [0, 1].map((i) => (v: Principal) => ({
  params: { orgId: v.organisations[i] ?? randomUUID() },
}))

const probes: Record<string, Probe> = {
  ...Object.fromEntries(
    [
      'users',
      'users/$userId',
      'invites',
      'invites/$inviteId',
      'projects',
      'projects/$projectId',
      'projects/$projectId/api_keys',
      'projects/$projectId/api_keys/$keyId',
      'usage/embeddings',
      'usage/rerank',
      'usage/reader',
      'usage/deepsearch',
      'usage/classify',
      'usage/bulk_embeddings',
      'costs',
      'audit_logs',
      'webhooks',
      'webhooks/$webhookId',
      'webhooks/$webhookId/deliveries',
    ].map((path): [string, Probe] => [
      `/v1/organization/${path}`,
      path.includes('$')
        ? {
            victims: [(v) => ({ params: { userId: v.uid ?? 'nobody', keyId: v.keyIds[0], webhookId: randomUUID() } })],
          }
        : {},
    ]),
  ),
  '/api/v1/account/keys': { rows: { of: 'keys', ids: (b) => b.keys.map((k: any) => k.key_id) } },
  '/api/v1/account/keys/$keyId/controls': { victims: [(v) => ({ params: { keyId: v.keyIds[0] } })] },
  '/api/v1/account/keys/$keyId/limits': { victims: [(v) => ({ params: { keyId: v.keyIds[0] } })] },
  '/api/v1/account/session': { refused: 200 },
  '/api/v1/account/organisations': {},
  ...Object.fromEntries(
    [
      '',
      '/members',
      '/invitations',
      '/projects',
      '/keys',
      '/usage_summary',
      '/purchases',
      '/billing_details',
      '/auto_recharge',
    ].map((rest) => [`/api/v1/account/organisations/$orgId${rest}`, { victims: organisationVictims }]),
  ),
  '/api/v1/account/organisations/$orgId/projects/$projectId/limits': {
    victims: [0, 1].map((i) => (v: Principal) => ({
      params: { orgId: v.organisations[i] ?? randomUUID(), projectId: randomUUID() },
    })),
  },
  '/api/v1/account/organisations/$orgId/invoices/$purchaseId': {
    victims: [(v) => ({ params: { orgId: v.organisations[1] ?? randomUUID(), purchaseId: v.own.purchases[0] } })],
  },
  '/api/v1/api_key/fe_user': {},
  '/api/v1/audit': { rows: { of: 'audit', ids: (b) => b.events.map((e: any) => e.id) } },
  '/api/v1/audit/export': { query: { format: 'json' }, rows: { of: 'audit', ids: (b) => b.map((e: any) => e.id) } },
  '/api/v1/account/admin_keys': {
    victims: [0, 1].map((i) => (v: Principal) => ({
      query: { organisation_id: v.organisations[i] ?? randomUUID() },
    })),
  },
  '/api/v1/account/webhooks': { rows: { of: 'webhooks', ids: (b) => b.endpoints.map((e: any) => e.id) } },
  '/api/v1/account/webhooks/$webhookId': {
    victims: [(v) => ({ params: { webhookId: v.own.webhooks[0] ?? randomUUID() } })],
  },
  '/api/v1/account/webhooks/$webhookId/deliveries': {
    victims: [(v) => ({ params: { webhookId: v.own.webhooks[0] ?? randomUUID() } })],
  },
  '/api/v1/auto_recharge': {},
  '/api/v1/billing/balance_notification': {},
  '/api/v1/billing/details': {},
  '/api/v1/billing/invoices/$purchaseId': { victims: [(v) => ({ params: { purchaseId: v.own.purchases[0] } })] },
  '/api/v1/billing/paginated_transaction': {
    query: { num_records: '100' },
    rows: { of: 'entries', ids: (b) => b.transactions.map((t: any) => t.id) },
  },
  '/api/v1/billing/purchases': { rows: { of: 'purchases', ids: (b) => b.purchases.map((p: any) => p.id) } },
  '/api/v1/billing/total_consumption': {
    totals: (body, caller) => expect(body.total_tokens).toBe(caller.consumed),
  },
  '/api/v1/billing/transaction': {
    rows: { of: 'entries', ids: (b) => (b ? [b.id] : []) },
    victims: [(v) => ({ query: { transaction_id: v.own.entries[0] } })],
  },
  '/api/v1/billing/usage_summary': {
    rows: { of: 'keys', ids: (b) => b.by_key.map((k: any) => k.key_id) },
    totals: (body) => expect(body.price?.purchases).toBe(1),
    victims: [(v) => ({ query: { key_id: v.keyIds[0] } })],
  },
  '/api/v1/classifiers': { rows: { of: 'classifiers', ids: (b) => b.map((c: any) => c.classifier_id) } },
  '/api/v1/requests': {
    rows: { of: 'requests', ids: (b) => b.requests.map((r: any) => r.id) },
    victims: [(v) => ({ query: { key_id: v.keyIds[0] } })],
  },
  '/api/v1/requests/export': {
    query: { format: 'json' },
    rows: { of: 'requests', ids: (b) => b.map((r: any) => r.id) },
    victims: [(v) => ({ query: { format: 'json', key_id: v.keyIds[0] } })],
  },
  '/v1/bulk-embeddings': { rows: { of: 'jobs', ids: (b) => b.data.map((j: any) => j.id) } },
  '/v1/bulk-embeddings/$id': { victims: [(v) => ({ params: { id: v.own.jobs[0] } })] },
  '/v1/classifiers': { rows: { of: 'classifiers', ids: (b) => b.map((c: any) => c.classifier_id) } },
  '/v1/files': { rows: { of: 'files', ids: (b) => b.data.map((f: any) => f.id) } },
  '/v1/files/$id': {
    victims: [(v) => ({ params: { id: v.own.files[0] } }), (v) => ({ params: { id: v.own.files[1] } })],
  },
  '/v1/files/$id/content': {
    victims: [(v) => ({ params: { id: v.own.files[0] } }), (v) => ({ params: { id: v.own.files[1] } })],
  },
  '/v1/batches': { rows: { of: 'batches', ids: (b) => b.data.map((j: any) => j.id) } },
  '/v1/batches/$id': { victims: [(v) => ({ params: { id: v.own.batches[0] } })] },
}
/** GETs that read no owner's rows by a key or a session, and why. */
const notOwnerData: Record<string, string> = {
  '/api/v1/tickets/viewer': "counts the verified e-mail's support tickets from the ID token itself",
}

let owner: Principal
let anonymous: Principal
let stranger: Principal
beforeAll(async () => {
  owner = await principal('owner', true)
  anonymous = await principal('anonymous', false)
  stranger = await principal('stranger', true)
  for (const p of [owner, anonymous, stranger])
    p.own.audit = rowsOf<{ id: string }>(
      await database.db.execute(
        sql`select id from audit_log where key_id = ${p.keyIds[0]}::uuid or (${p.uid ?? null}::text is not null and account_id = ${p.uid ?? null})`,
      ),
    ).map((row) => String(row.id))
}, 180_000)

/** Who asks: a key without an account, an account's session with its key, the session alone. */
const callers = () => [
  { label: "a stranger's key", who: anonymous, init: { bearer: anonymous.apiKey }, hasKey: true, hasSession: false },
  {
    label: "a stranger's session and key",
    who: stranger,
    init: { bearer: stranger.apiKey, headers: { cookie: stranger.cookie! } },
    hasKey: true,
    hasSession: true,
  },
  {
    label: "a stranger's session",
    who: stranger,
    init: { headers: { cookie: stranger.cookie! } },
    hasKey: false,
    hasSession: true,
  },
]

describe("no list shows a stranger another owner's rows", () => {
  it('probes every GET that reads an owner’s data', () => {
    const owned = gets.filter((g) => !['none', 'service'].includes(g.auth)).map((g) => g.path)
    expect(owned.length).toBeGreaterThan(15)
    for (const path of owned) expect(path in probes || path in notOwnerData, `${path} has no probe`).toBe(true)
    for (const path of Object.keys(probes)) expect(owned, `${path} is not a GET route`).toContain(path)
  })

  it.each(Object.keys(probes))('%s', async (path) => {
    const probe = probes[path]
    const { auth } = gets.find((g) => g.path === path)!
    const concrete = (params: Record<string, string> = {}) =>
      path.replace(/\$(\w+)/g, (_, name: string) => params[name] ?? randomUUID())
    for (const caller of callers()) {
      const others = [owner, anonymous, stranger].filter((p) => p !== caller.who)
      // None of these callers holds an admin key: the Administration API refuses them all (admin-api.test.ts).
      const may = auth === 'admin-key' ? false : auth === 'session' ? caller.hasSession : caller.hasKey
      const expectNothingOf = (text: string, what: string) => {
        for (const other of others)
          for (const marker of other.markers)
            expect(text.includes(marker), `${caller.label}: ${what} shows ${other.name}'s ${marker}`).toBe(false)
      }
      if (!path.includes('$')) {
        const answer = await call('GET', path, { ...caller.init, query: probe.query })
        const text = typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body)
        expect(answer.status, `${caller.label}: ${text}`).toBe(may ? 200 : (probe.refused ?? 401))
        expectNothingOf(text, path)
        if (may && probe.rows) {
          const ids = probe.rows.ids(answer.body)
          expect(ids.length, `${caller.label}: ${path} lists its own rows`).toBeGreaterThan(0)
          for (const id of ids)
            expect(caller.who.own[probe.rows.of], `${caller.label}: ${path} row ${id} is not its own`).toContain(id)
        }
        if (may && probe.totals) probe.totals(answer.body, caller.who)
      }
      for (const victimOf of probe.victims ?? [])
        for (const victim of others) {
          const { params, query } = victimOf(victim)
          const answer = await call('GET', concrete(params), { ...caller.init, query })
          const text = typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body)
          expect([401, 404, 422], `${caller.label} asking for ${victim.name}'s: ${text}`).toContain(answer.status)
          expectNothingOf(text, `${path} for ${victim.name}`)
        }
    }
  })
})
