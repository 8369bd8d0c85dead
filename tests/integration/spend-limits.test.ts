import { randomUUID } from 'node:crypto'
import { rmSync } from 'node:fs'
import { sql } from 'drizzle-orm'
import { afterAll, describe, expect, it } from 'vitest'
import { rowsOf } from '~/server/db/rows'
import { bySystem } from '~/server/domain/audit'
import { issueKey } from '~/server/domain/keys'
import { applyEntry, auditLedger } from '~/server/domain/ledger'
import { consume, usageReversalRef } from '~/server/domain/metering'
import { openSession } from '~/server/domain/sessions'
import { ensureUser } from '~/server/domain/users'
import { createMailer, drainOutbox, outboxIdle, resetOutboxWorker } from '~/server/providers/email'
import { SERVICE_TOKEN, apiDatabase, call, scalar, solvedCaptcha } from '../support/api'
import { drainQueue, jobOf, upload, uploadForm } from '../support/bulk'
import { startSmtpServer } from '../support/smtp'
import { countTokens } from '../support/tokens'

/** Spend limits through the account routes that set them and the APIs they refuse (README "Per-key controls"). */
let smtp: Awaited<ReturnType<typeof startSmtpServer>>
const dataDir = `tests/.tmp/spend-limits-${process.pid}`
const database = apiDatabase({
  env: async () => {
    smtp = await startSmtpServer()
    resetOutboxWorker()
    return { SMTP_URL: smtp.url, DATA_DIR: dataDir, JOB_WORKER: 'off' }
  },
})
afterAll(async () => {
  await outboxIdle()
  await smtp?.close()
  rmSync(dataDir, { recursive: true, force: true })
})

/** A signed-in account with one key holding `balance` tokens (bought, so the key is paid). */
async function account(balance = 1_000_000) {
  const uid = `limits-${randomUUID()}`
  await ensureUser(database.db, { uid, email: `${uid}@example.com` })
  const { token } = await openSession(database.db, bySystem, uid, 1)
  const { apiKey, key } = await issueKey(database.db, bySystem, 'empty', { ownerId: uid, name: 'production' })
  // Premium rate limits: the per-minute request limit is never what refuses here.
  await database.db.execute(sql`update api_keys set speed_level = 2 where id = ${key.id}::uuid`)
  if (balance > 0)
    await applyEntry(database.db, {
      keyId: key.id,
      amount: balance,
      type: 'purchase',
      externalRef: `purchase:${randomUUID()}`,
    })
  return { uid, apiKey, keyId: key.id, headers: { cookie: `session=${token}` } }
}
type Account = Awaited<ReturnType<typeof account>>

const addLimit = (who: Account, json: Record<string, unknown>, keyId = who.keyId) =>
  call('POST', `/api/v1/account/keys/${keyId}/limits`, { headers: who.headers, json })
const listLimits = (who: Account, keyId = who.keyId) =>
  call('GET', `/api/v1/account/keys/${keyId}/limits`, { headers: who.headers })
const embed = (apiKey: string, text = 'a text of a known size') =>
  call('POST', '/v1/embeddings', { bearer: apiKey, json: { model: 'embeddings-v3', input: [text] } })
const meter = (apiKey: string, tokens: number, usageEventId = randomUUID()) =>
  call('POST', '/internal/v1/usage', {
    bearer: SERVICE_TOKEN,
    json: { api_key: apiKey, product: 'embeddings', tokens, usage_event_id: usageEventId },
  })
const consumed = (keyId: string) =>
  scalar(
    database.db,
    sql`select coalesce(-sum(amount), 0) from ledger_entries where key_id = ${keyId}::uuid
      and (type = 'consume' or (type = 'adjustment' and external_ref like 'usage-reversal:%'))`,
  )

/** The next UTC midnight, Monday and first of the month: when day, week and month limits reset. */
function resets(now = new Date()) {
  const [y, m, d] = [now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()]
  const sinceMonday = (now.getUTCDay() + 6) % 7
  return {
    day: new Date(Date.UTC(y, m, d + 1)).toISOString(),
    week: new Date(Date.UTC(y, m, d - sinceMonday + 7)).toISOString(),
    month: new Date(Date.UTC(y, m + 1, 1)).toISOString(),
  }
}

describe('setting, listing and removing spend limits', () => {
  it('adds limits in tokens and dollars, lists them with their period, and removes one; each change is audited', async () => {
    const who = await account()
    const tokens = await addLimit(who, { unit: 'tokens', amount: 5_000, period: 'week', alert_percent: 80 })
    expect(tokens.status).toBe(200)
    expect(tokens.body).toMatchObject({
      subject_kind: 'key',
      subject_id: who.keyId,
      unit: 'tokens',
      amount: 5_000,
      period: 'week',
      alert_percent: 80,
      alert_email: `${who.uid}@example.com`,
      used: 0,
      left: 5_000,
      allowed_tokens: 5_000,
      resets_at: resets().week,
    })
    const dollars = await addLimit(who, { unit: 'usd', amount: 2.5, period: 'month', alert_email: null })
    expect(dollars.status).toBe(200)
    // The key bought its tokens in the test's purchase entry, with no purchase row: priced at the list price.
    expect(dollars.body).toMatchObject({ unit: 'usd', amount: 2.5, period: 'month', alert_percent: null, left: 2.5 })
    expect(dollars.body.allowed_tokens).toBe(Math.floor(2.5 / dollars.body.usd_per_token))

    const listed = await listLimits(who)
    expect(listed.body.limits.map((l: { id: string }) => l.id)).toEqual([tokens.body.id, dollars.body.id])

    const removed = await call('DELETE', `/api/v1/account/keys/${who.keyId}/limits/${tokens.body.id}`, {
      headers: who.headers,
    })
    expect(removed.status).toBe(200)
    expect((await listLimits(who)).body.limits.map((l: { id: string }) => l.id)).toEqual([dollars.body.id])
    const again = await call('DELETE', `/api/v1/account/keys/${who.keyId}/limits/${tokens.body.id}`, {
      headers: who.headers,
    })
    expect(again.status).toBe(404)
    expect(again.body.detail).toBe('Spend limit not found')

    const audit = rowsOf<{ action: string; details: Record<string, unknown> }>(
      await database.db.execute(
        sql`select action, details from audit_log where account_id = ${who.uid} and action like 'key.limit%' order by id`,
      ),
    )
    expect(audit).toEqual([
      { action: 'key.limit_added', details: expect.objectContaining({ unit: 'tokens', amount: 5000, period: 'week' }) },
      { action: 'key.limit_added', details: expect.objectContaining({ unit: 'usd', amount: 2.5, period: 'month' }) },
      { action: 'key.limit_removed', details: expect.objectContaining({ limit_id: tokens.body.id }) },
    ])
  })

  it('refuses bad limits with 422 naming the field, more than ten, and other accounts with 404', async () => {
    const who = await account()
    for (const [field, json] of [
      ['unit', { unit: 'eur', amount: 1, period: 'day' }],
      ['period', { unit: 'tokens', amount: 1, period: 'year' }],
      ['amount', { unit: 'tokens', amount: 1.5, period: 'day' }],
      ['amount', { unit: 'tokens', amount: 0, period: 'day' }],
      ['amount', { unit: 'usd', amount: 0.0000001, period: 'day' }],
      ['alert_percent', { unit: 'tokens', amount: 1, period: 'day', alert_percent: 101 }],
      ['alert_email', { unit: 'tokens', amount: 1, period: 'day', alert_percent: 50, alert_email: 'nope' }],
    ] as const) {
      const refused = await addLimit(who, json)
      expect(refused.status, field).toBe(422)
      expect(JSON.stringify(refused.body.detail)).toContain(field)
    }
    for (let i = 0; i < 10; i++)
      expect((await addLimit(who, { unit: 'tokens', amount: 1000 + i, period: 'day' })).status).toBe(200)
    const eleventh = await addLimit(who, { unit: 'tokens', amount: 5, period: 'day' })
    expect(eleventh.status).toBe(422)
    expect(JSON.stringify(eleventh.body.detail)).toContain('at most 10 spend limits')

    const other = await account()
    expect((await addLimit(other, { unit: 'tokens', amount: 5, period: 'day' }, who.keyId)).status).toBe(404)
    expect((await listLimits(other, who.keyId)).status).toBe(404)
    const [mine] = (await listLimits(who)).body.limits
    const stranger = await call('DELETE', `/api/v1/account/keys/${who.keyId}/limits/${mine.id}`, {
      headers: other.headers,
    })
    expect(stranger.status).toBe(404)
    expect((await listLimits(who)).body.limits).toHaveLength(10)
    expect((await call('GET', `/api/v1/account/keys/${who.keyId}/limits`)).status).toBe(401)
  })
})

describe('a spend limit refuses what would pass it, before any work', () => {
  it('lets requests through up to a token limit exactly, then 402 naming the limit, its reset and OpenAI’s code', async () => {
    const who = await account()
    const text = 'a request of a known size'
    const perRequest = countTokens(text)
    await addLimit(who, { unit: 'tokens', amount: 3 * perRequest, period: 'week' })
    for (let i = 0; i < 3; i++) expect((await embed(who.apiKey, text)).status).toBe(200)
    const refused = await embed(who.apiKey, text)
    expect(refused.status).toBe(402)
    expect(refused.body.detail).toBe(
      `This API key's weekly spend limit of ${(3 * perRequest).toLocaleString('en-US')} tokens is reached; it resets at ${resets().week}`,
    )
    expect(refused.body.error).toMatchObject({ type: 'insufficient_quota', code: 'insufficient_quota' })
    expect(Number(refused.response.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(await consumed(who.keyId)).toBe(3 * perRequest)
    const [limit] = (await listLimits(who)).body.limits
    expect(limit).toMatchObject({ used: 3 * perRequest, left: 0, used_tokens: 3 * perRequest })
    expect(await auditLedger(database.db)).toEqual([])
  })

  it('measures a dollar limit at the price the key paid for its tokens', async () => {
    const who = await account(0)
    // 10,000 tokens bought for $1.00: a token costs $0.0001, so $0.05 a day allows 500 tokens.
    await database.db
      .execute(sql`insert into purchases (key_id, provider, kind, price_id, tokens, amount, currency, status, paid_at)
      values (${who.keyId}::uuid, 'sandbox', 'checkout', 'price_tokens_1b', 10000, 100, 'usd', 'paid', now())`)
    await applyEntry(database.db, {
      keyId: who.keyId,
      amount: 10_000,
      type: 'purchase',
      externalRef: `purchase:${randomUUID()}`,
    })
    const set = await addLimit(who, { unit: 'usd', amount: 0.05, period: 'day' })
    expect(set.body).toMatchObject({ usd_per_token: 0.0001, allowed_tokens: 500, used: 0, left: 0.05 })
    expect((await meter(who.apiKey, 300)).status).toBe(200)
    const [limit] = (await listLimits(who)).body.limits
    expect(limit).toMatchObject({ used: 0.03, left: 0.02, used_tokens: 300 })
    const refused = await meter(who.apiKey, 201)
    expect(refused.status).toBe(402)
    expect(refused.body.detail).toBe(
      `This API key's daily spend limit of $0.05 is reached; it resets at ${resets().day}`,
    )
    expect((await meter(who.apiKey, 200)).status).toBe(200)
    expect(await consumed(who.keyId)).toBe(500)
  })

  it('must fit in every limit: the one with least room refuses, and removing it lets the request through', async () => {
    const who = await account()
    const roomy = await addLimit(who, { unit: 'tokens', amount: 10_000, period: 'month' })
    const tight = await addLimit(who, { unit: 'tokens', amount: 100, period: 'day' })
    expect((await meter(who.apiKey, 80)).status).toBe(200)
    const refused = await meter(who.apiKey, 30)
    expect(refused.status).toBe(402)
    expect(refused.body.detail).toContain('daily spend limit of 100 tokens')
    await call('DELETE', `/api/v1/account/keys/${who.keyId}/limits/${tight.body.id}`, { headers: who.headers })
    expect((await meter(who.apiKey, 30)).status).toBe(200)
    const [left] = (await listLimits(who)).body.limits
    expect(left).toMatchObject({ id: roomy.body.id, used: 110 })
  })

  it('counts what the key already spent in the period when a limit is set', async () => {
    const who = await account()
    expect((await meter(who.apiKey, 700)).status).toBe(200)
    const set = await addLimit(who, { unit: 'tokens', amount: 1_000, period: 'day' })
    expect(set.body).toMatchObject({ used: 700, left: 300 })
    expect((await meter(who.apiKey, 301)).status).toBe(402)
  })

  it('takes given-back tokens off the limit, and starts a new period from zero', async () => {
    const who = await account()
    await addLimit(who, { unit: 'tokens', amount: 100, period: 'week' })
    const eventId = `given-back-${randomUUID()}`
    await consume(database.db, { keyId: who.keyId, tokens: 80, usageEventId: eventId, product: 'embeddings' })
    await expect(
      consume(database.db, { keyId: who.keyId, tokens: 30, usageEventId: randomUUID(), product: 'embeddings' }),
    ).rejects.toThrow(/week tokens limit 100/)
    await applyEntry(database.db, {
      keyId: who.keyId,
      amount: 50,
      type: 'adjustment',
      externalRef: usageReversalRef(eventId),
      product: 'embeddings',
    })
    expect((await listLimits(who)).body.limits[0]).toMatchObject({ used: 30, left: 70 })
    expect((await meter(who.apiKey, 70)).status).toBe(200)
    expect((await meter(who.apiKey, 1)).status).toBe(402)

    // As if the week had passed: the counter names last week, so this week starts at 0.
    await database.db.execute(
      sql`update spend_limits set period_of = period_of - 7 where subject_id = ${who.keyId}::uuid`,
    )
    expect((await listLimits(who)).body.limits[0]).toMatchObject({ used: 0, left: 100 })
    expect((await meter(who.apiKey, 100)).status).toBe(200)
    expect((await listLimits(who)).body.limits[0]).toMatchObject({ used: 100, left: 0 })
  })

  it('keeps the daily cap working beside the limits', async () => {
    const who = await account()
    await addLimit(who, { unit: 'tokens', amount: 1_000, period: 'day' })
    await database.db.execute(sql`update api_keys set daily_cap = 50 where id = ${who.keyId}::uuid`)
    const refused = await meter(who.apiKey, 60)
    expect(refused.status).toBe(402)
    expect(refused.body.detail).toMatch(/daily spending cap of 50 tokens/)
    expect((await meter(who.apiKey, 50)).status).toBe(200)
    expect((await listLimits(who)).body.limits[0]).toMatchObject({ used: 50 })
  })

  it('refuses a transfer of more than a limit leaves (403), since moving tokens is spending them', async () => {
    const who = await account(5_000)
    const receiver = await issueKey(database.db, bySystem, 'empty', { ownerId: who.uid })
    await addLimit(who, { unit: 'tokens', amount: 1_000, period: 'month' })
    const refused = await call('POST', '/api/v1/billing/transfer_balance', {
      bearer: who.apiKey,
      query: { receiver_key: receiver.apiKey, revoke_sender_key: 'true' },
      form: { captcha: await solvedCaptcha('transfer_balance') },
    })
    expect(refused.status).toBe(403)
    expect(refused.body.detail).toContain('monthly spend limit of 1,000 tokens leaves 1,000 tokens')
    expect(await scalar(database.db, sql`select balance from api_keys where id = ${who.keyId}::uuid`)).toBe(5_000)
  })
})

describe('bulk jobs and batches stop at a limit, charging nothing past it', () => {
  it('fails a bulk job whose batch would pass the limit, naming the limit and when to retry', async () => {
    const who = await account()
    await addLimit(who, { unit: 'tokens', amount: 1, period: 'day' })
    const uploaded = await upload(
      who.apiKey,
      uploadForm('texts.txt', 'one text\nanother text\n', { model: 'embeddings-v3' }),
    )
    expect(uploaded.status).toBe(200)
    await drainQueue(database.db)
    const { body: job } = await jobOf(who.apiKey, uploaded.body.id)
    expect(job.status).toBe('failed')
    expect(job.error).toBe(`The key's daily spend limit of 1 tokens was reached: retry the job after ${resets().day}`)
    expect(await consumed(who.keyId)).toBe(0)
    // The refusal rolled the batch back, not the limit's mark: `limit.reached` was emitted beside it, once.
    const marked = await scalar(
      database.db,
      sql`select count(*) from spend_limits where subject_id = ${who.keyId}::uuid and reached_of is not null`,
    )
    expect(marked).toBe(1)
  })

  it('fails a batch whose part would pass the limit, with the same reason', async () => {
    const who = await account()
    // At the list price a micro-dollar buys 20 tokens; the line's 100 tokens cost 50 at the batch price.
    await addLimit(who, { unit: 'usd', amount: 0.000001, period: 'month' })
    const input = 'word '.repeat(100).trim()
    expect(countTokens(input)).toBe(100)
    const line = { custom_id: 'one', method: 'POST', url: '/v1/embeddings', body: { model: 'embeddings-v3', input } }
    const form = new FormData()
    form.append('purpose', 'batch')
    form.append('file', new Blob([`${JSON.stringify(line)}\n`]), 'requests.jsonl')
    const file = await call('POST', '/v1/files', { bearer: who.apiKey, body: form })
    expect(file.status).toBe(200)
    const batch = await call('POST', '/v1/batches', {
      bearer: who.apiKey,
      json: { input_file_id: file.body.id, endpoint: '/v1/embeddings', completion_window: '24h' },
    })
    expect(batch.status).toBe(200)
    for (let i = 0; i < 5; i++) await drainQueue(database.db)
    const done = await call('GET', `/v1/batches/${batch.body.id}`, { bearer: who.apiKey })
    expect(done.body.status).toBe('failed')
    expect(JSON.stringify(done.body.errors)).toContain(
      `The key's monthly spend limit of $0.000001 was reached: retry the job after ${resets().month}`,
    )
    expect(await consumed(who.keyId)).toBe(0)
  })
})

describe('alerts at a share of a limit', () => {
  it('mails the alert address once a period when the share is reached, and again in the next period', async () => {
    const who = await account()
    const to = `alerts-${randomUUID()}@example.com`
    await addLimit(who, { unit: 'tokens', amount: 1_000, period: 'day', alert_percent: 80, alert_email: to })
    const mailsTo = async () => {
      await outboxIdle()
      await drainOutbox(database.db, await createMailer())
      return smtp.received.filter((m) => m.to.includes(to))
    }
    expect((await meter(who.apiKey, 700)).status).toBe(200)
    expect(await mailsTo()).toHaveLength(0)
    expect((await meter(who.apiKey, 100)).status).toBe(200)
    expect((await meter(who.apiKey, 100)).status).toBe(200)
    const mails = await mailsTo()
    expect(mails).toHaveLength(1)
    const key = rowsOf<{ prefix: string; last4: string }>(
      await database.db.execute(sql`select prefix, last4 from api_keys where id = ${who.keyId}::uuid`),
    )[0]
    const raw = mails[0].raw.replace(/=\r?\n/g, '')
    expect(raw).toContain('used 80% of a spend limit')
    expect(raw).toContain(`${key.prefix}`)
    expect(raw).toContain('has used 800 tokens of its daily spend limit of 1,000 tokens')
    expect(raw).toContain(resets().day.replace('.000Z', 'Z'))
    expect(raw).toContain('/api-dashboard/account')
    expect(raw).not.toContain(who.apiKey)

    // The next day: the counter and the alert start again.
    await database.db.execute(
      sql`update spend_limits set period_of = period_of - 1, alerted_of = alerted_of - 1 where subject_id = ${who.keyId}::uuid`,
    )
    expect((await meter(who.apiKey, 850)).status).toBe(200)
    expect(await mailsTo()).toHaveLength(2)
    expect((await meter(who.apiKey, 100)).status).toBe(200)
    expect(await mailsTo()).toHaveLength(2)
  })
})
