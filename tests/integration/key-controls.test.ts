import { randomUUID } from 'node:crypto'
import { sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { rowsOf } from '~/server/db/rows'
import { bySystem } from '~/server/domain/audit'
import { issueKey } from '~/server/domain/keys'
import { applyEntry, auditLedger } from '~/server/domain/ledger'
import { consume, usageReversalRef } from '~/server/domain/metering'
import { openSession } from '~/server/domain/sessions'
import { ensureUser } from '~/server/domain/users'
import { call, keyWithBalance, scalar } from '../support/api'
import { apiWithWeb } from '../support/api-with-web'
import { drainQueue, jobOf, upload, uploadForm } from '../support/bulk'
import { countTokens } from '../support/tokens'

const api = apiWithWeb({ READER_ALLOW_PRIVATE_NETWORKS: 'true', DEEPSEARCH_ENGINE: 'builtin' })

interface Controls {
  daily_cap?: number | null
  monthly_cap?: number | null
  allowed_products?: string[] | null
  allowed_models?: string[] | null
  expires_at?: string | null
  allowed_networks?: string[] | null
}

/** Sets a key's controls as the account endpoint stores them (tests that need a past expiry write it directly). */
async function control(keyId: string, c: Controls) {
  const list = (l: string[] | null | undefined) => (l ? sql`${`{${l.join(',')}}`}::text[]` : sql`null`)
  await api.database.db.execute(sql`update api_keys set
    daily_cap = ${c.daily_cap ?? null}, monthly_cap = ${c.monthly_cap ?? null},
    allowed_products = ${list(c.allowed_products)}, allowed_models = ${list(c.allowed_models)},
    expires_at = ${c.expires_at ?? null}::timestamptz, allowed_networks = ${list(c.allowed_networks)}
    where id = ${keyId}::uuid`)
}

/** One request of each API family, its ledger product, and another product to scope a key to instead. */
const families: Array<{
  name: string
  product: string
  other: string
  send: (bearer: string, address?: string) => Promise<{ status: number; body: any; response: Response }>
}> = [
  ...(
    [
      ['embeddings', 'embeddings', '/v1/embeddings', { model: 'embeddings-v3', input: ['a capped text'] }],
      [
        'rerank',
        'reranker',
        '/v1/rerank',
        { model: 'reranker-v3', query: 'caps', documents: ['one document about caps'] },
      ],
      [
        'classify',
        'classifier',
        '/v1/classify',
        { model: 'embeddings-v3', input: ['a capped text'], labels: ['news', 'sport'] },
      ],
      [
        'train',
        'classifier',
        '/v1/train',
        { model: 'embeddings-v3', input: [{ text: 'a capped text', label: 'news' }] },
      ],
      [
        'deep search',
        'deepsearch',
        '/v1/chat/completions',
        { model: 'deepsearch-v1', messages: [{ role: 'user', content: 'What does a reranker do?' }] },
      ],
    ] as Array<[string, string, string, unknown]>
  ).map(([name, product, path, json]) => ({
    name,
    product,
    other: product === 'embeddings' ? 'reranker' : 'embeddings',
    send: (bearer: string, address?: string) => call('POST', path, { bearer, json, address }),
  })),
  {
    name: 'reader',
    product: 'reader',
    other: 'embeddings',
    send: (bearer, address) =>
      call('GET', `/r/${api.web.url('/article')}`, {
        bearer,
        address,
        headers: { 'x-no-cache': 'true' },
      }),
  },
  {
    name: 'bulk',
    product: 'bulk-embeddings',
    other: 'embeddings',
    send: (bearer, address) =>
      call('POST', '/v1/bulk-embeddings', {
        bearer,
        address,
        body: uploadForm('texts.txt', 'one text\nanother text\n', { model: 'embeddings-v3' }),
      }),
  },
]

const spent = (keyId: string) =>
  scalar(
    api.database.db,
    sql`select coalesce(sum(-amount), 0) from ledger_entries where key_id = ${keyId}::uuid and type = 'consume'`,
  )

describe('per-key controls refuse on every API family, before any work and without a charge', () => {
  for (const family of families) {
    it(`${family.name}: scopes (403 naming what is allowed), expiry (401), address ranges (403), allowed from inside a range`, async () => {
      const key = await keyWithBalance(api.database.db, 1_000_000)

      await control(key.id, { allowed_products: [family.other] })
      const scoped = await family.send(key.apiKey)
      expect(scoped.status).toBe(403)
      expect(scoped.body.detail).toContain(`may not be used for ${family.product}`)
      expect(scoped.body.detail).toContain(`products: ${family.other}`)

      await control(key.id, { expires_at: '2020-01-01T00:00:00Z' })
      const expired = await family.send(key.apiKey)
      expect(expired.status).toBe(401)
      expect(expired.body.detail).toBe('This API key expired at 2020-01-01T00:00:00.000Z')

      await control(key.id, { allowed_networks: ['10.0.0.0/8', '2001:db8::/32'] })
      const outside = await family.send(key.apiKey, '203.0.113.7')
      expect(outside.status).toBe(403)
      expect(outside.body.detail).toBe(
        'This API key may not be used from 203.0.113.7; it is allowed from 10.0.0.0/8, 2001:db8::/32',
      )
      expect(await spent(key.id)).toBe(0)
      expect(await api.balanceOf(key.id)).toBe(1_000_000)

      const inside = await family.send(key.apiKey, '2001:db8:5::9')
      expect(inside.status).toBeLessThan(300)
    })
  }

  for (const family of families.filter((f) => f.name !== 'bulk')) {
    it(`${family.name}: a request past the daily cap gets 402 naming the cap and when it resets`, async () => {
      const key = await keyWithBalance(api.database.db, 1_000_000)
      await control(key.id, { daily_cap: 1 })
      const refused = await family.send(key.apiKey)
      expect(refused.status).toBe(402)
      const midnight = new Date()
      midnight.setUTCHours(24, 0, 0, 0)
      expect(refused.body.detail).toBe(
        `This API key's daily spending cap of 1 tokens is reached; it resets at ${midnight.toISOString()}`,
      )
      expect(Number(refused.response.headers.get('retry-after'))).toBeGreaterThan(0)
      expect(await spent(key.id)).toBe(0)
      expect(await api.balanceOf(key.id)).toBe(1_000_000)
    })
  }
})

describe('model scopes', () => {
  it('refuses a model outside the list naming the allowed ones; the reader, which names no model, is judged by product', async () => {
    const key = await keyWithBalance(api.database.db, 1_000_000)
    await control(key.id, { allowed_models: ['embeddings-v4', 'reranker-v3'] })
    const refused = await families[0].send(key.apiKey)
    expect(refused.status).toBe(403)
    expect(refused.body.detail).toBe(
      'This API key may not be used for embeddings with model embeddings-v3; it is allowed models: embeddings-v4, reranker-v3',
    )
    expect((await families[1].send(key.apiKey)).status).toBe(200)
    expect((await families.find((f) => f.name === 'reader')!.send(key.apiKey)).status).toBe(200)
  })

  it('refuses in the ledger too, for a debit that slipped past the request (controls changed meanwhile)', async () => {
    const key = await keyWithBalance(api.database.db, 1_000)
    await control(key.id, { allowed_products: ['reranker'] })
    await expect(
      consume(api.database.db, {
        keyId: key.id,
        tokens: 5,
        usageEventId: `scoped-${randomUUID()}`,
        product: 'embeddings',
        model: 'embeddings-v3',
      }),
    ).rejects.toMatchObject({ kind: 'KeyOutOfScope' })
    await control(key.id, { expires_at: '2020-01-01T00:00:00Z' })
    await expect(
      consume(api.database.db, {
        keyId: key.id,
        tokens: 5,
        usageEventId: `expired-${randomUUID()}`,
        product: 'reranker',
      }),
    ).rejects.toMatchObject({ kind: 'KeyExpired' })
    expect(await api.balanceOf(key.id)).toBe(1_000)
  })
})

describe('spending caps', () => {
  it('lets requests through up to the cap exactly, then refuses with the monthly cap named', async () => {
    const text = 'a request of a known size'
    const perRequest = countTokens(text)
    const key = await keyWithBalance(api.database.db, 1_000_000)
    await control(key.id, { daily_cap: 10 * perRequest, monthly_cap: 3 * perRequest })
    const send = () =>
      call('POST', '/v1/embeddings', {
        bearer: key.apiKey,
        json: { model: 'embeddings-v3', input: [text] },
      })
    for (let i = 0; i < 3; i++) expect((await send()).status).toBe(200)
    const refused = await send()
    expect(refused.status).toBe(402)
    expect(refused.body.detail).toMatch(
      /^This API key's monthly spending cap of [\d,]+ tokens is reached; it resets at \d{4}-\d{2}-01T00:00:00.000Z$/,
    )
    expect(await spent(key.id)).toBe(3 * perRequest)
    expect(await auditLedger(api.database.db)).toEqual([])
  })

  it('stops a bulk job at the cap with the reason, charging nothing past it', async () => {
    const key = await keyWithBalance(api.database.db, 1_000_000)
    await control(key.id, { daily_cap: 1 })
    const uploaded = await upload(
      key.apiKey,
      uploadForm('texts.txt', 'one text\nanother text\n', { model: 'embeddings-v3' }),
    )
    expect(uploaded.status).toBe(200)
    await drainQueue(api.database.db)
    const { body: job } = await jobOf(key.apiKey, uploaded.body.id)
    expect(job.status).toBe('failed')
    expect(job.error).toMatch(
      /^The key's daily spending cap of 1 tokens was reached: retry the job after \d{4}-\d{2}-\d{2}T00:00:00.000Z$/,
    )
    expect(await spent(key.id)).toBe(0)
  })

  it('counts tokens given back: a failed request frees its share of the cap', async () => {
    const key = await keyWithBalance(api.database.db, 1_000)
    await control(key.id, { daily_cap: 100 })
    const eventId = `given-back-${randomUUID()}`
    await consume(api.database.db, { keyId: key.id, tokens: 80, usageEventId: eventId, product: 'embeddings' })
    await expect(
      consume(api.database.db, { keyId: key.id, tokens: 30, usageEventId: `${eventId}-2`, product: 'embeddings' }),
    ).rejects.toThrow(/day cap 100/)
    await applyEntry(api.database.db, {
      keyId: key.id,
      amount: 80,
      type: 'adjustment',
      externalRef: usageReversalRef(eventId),
      product: 'embeddings',
    })
    await consume(api.database.db, { keyId: key.id, tokens: 30, usageEventId: `${eventId}-3`, product: 'embeddings' })
    expect(await scalar(api.database.db, sql`select spent_day from api_keys where id = ${key.id}::uuid`)).toBe(30)
  })

  it("deep search reserves within the cap: a run under the cap is answered, the key's spend stays within it", async () => {
    const key = await keyWithBalance(api.database.db, 1_000_000)
    await control(key.id, { daily_cap: 100_000 })
    const answer = await call('POST', '/v1/chat/completions', {
      bearer: key.apiKey,
      json: { model: 'deepsearch-v1', messages: [{ role: 'user', content: 'What does a reranker do?' }] },
    })
    expect(answer.status).toBe(200)
    const [row] = rowsOf<{ spent_day: string; balance: string }>(
      await api.database.db.execute(sql`select spent_day, balance from api_keys where id = ${key.id}::uuid`),
    )
    expect(Number(row.spent_day)).toBe(1_000_000 - Number(row.balance))
  })
})

describe('the controls endpoint', () => {
  async function account() {
    const uid = `controls-${randomUUID()}`
    await ensureUser(api.database.db, { uid, email: `${uid}@example.com` })
    const { token } = await openSession(api.database.db, bySystem, uid, 1)
    const { apiKey, key } = await issueKey(api.database.db, bySystem, 'empty', { ownerId: uid, name: 'production' })
    return { uid, apiKey, key, cookie: { cookie: `session=${token}` } }
  }
  const put = (keyId: string, cookie: Record<string, string>, json: unknown) =>
    call('PUT', `/api/v1/account/keys/${keyId}/controls`, { headers: cookie, json })

  it('saves normalised controls, shows them with the spend so far, and records the change in the audit log', async () => {
    const { uid, key, cookie } = await account()
    const expires = new Date(Date.now() + 86_400_000).toISOString()
    const saved = await put(key.id, cookie, {
      daily_cap: 1_000,
      monthly_cap: 20_000,
      allowed_products: ['embeddings', 'embeddings', 'reranker'],
      allowed_models: ['embeddings-v3'],
      expires_at: expires,
      allowed_networks: ['10.1.2.3/8', '2001:DB8::1'],
    })
    expect(saved.status).toBe(200)
    expect(saved.body).toMatchObject({
      daily_cap: 1_000,
      monthly_cap: 20_000,
      allowed_products: ['embeddings', 'reranker'],
      allowed_models: ['embeddings-v3'],
      expires_at: expires,
      allowed_networks: ['10.0.0.0/8', '2001:db8::1/128'],
      spent_today: 0,
    })
    const read = await call('GET', `/api/v1/account/keys/${key.id}/controls`, {
      headers: cookie,
    })
    expect(read.body).toEqual(saved.body)
    const audit = rowsOf<{ action: string; details: Record<string, unknown> }>(
      await api.database.db.execute(
        sql`select action, details from audit_log where account_id = ${uid} and action = 'key.controls_changed'`,
      ),
    )
    expect(audit).toHaveLength(1)
    expect(audit[0].details).toMatchObject({ daily_cap: 1000, allowed_networks: '10.0.0.0/8, 2001:db8::1/128' })
  })

  it('refuses bad controls with 422 naming the field, and another account’s key with 404', async () => {
    const { key, cookie } = await account()
    const none = {
      daily_cap: null,
      monthly_cap: null,
      allowed_products: null,
      allowed_models: null,
      expires_at: null,
      allowed_networks: null,
    }
    for (const [field, value] of [
      ['daily_cap', 0],
      ['allowed_networks', ['10.0.0.0/33']],
      ['allowed_products', ['images']],
      ['expires_at', '2020-01-01T00:00:00Z'],
    ] as const) {
      const refused = await put(key.id, cookie, { ...none, [field]: value })
      expect(refused.status).toBe(422)
      expect(JSON.stringify(refused.body.detail)).toContain(field)
    }
    const overMonthly = await put(key.id, cookie, { ...none, daily_cap: 10, monthly_cap: 5 })
    expect(overMonthly.status).toBe(422)
    const other = await account()
    expect((await put(key.id, other.cookie, none)).status).toBe(404)
  })
})
