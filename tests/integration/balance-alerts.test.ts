import { randomUUID } from 'node:crypto'
import { sql } from 'drizzle-orm'
import { afterAll, describe, expect, it } from 'vitest'
import { rowsOf } from '~/server/db/rows'
import { bySystem } from '~/server/domain/audit'
import { applyEntry } from '~/server/domain/ledger'
import { consume } from '~/server/domain/metering'
import { transferBalance } from '~/server/domain/transfers'
import { createMailer, drainOutbox, outboxIdle, resetOutboxWorker } from '~/server/providers/email'
import { SERVICE_TOKEN, call, keyWithBalance, scalar, apiDatabase } from '../support/api'
import { startSmtpServer } from '../support/smtp'
import { describeWithService } from '../support/services'

let smtp: Awaited<ReturnType<typeof startSmtpServer>>
const database = apiDatabase({
  env: async () => {
    smtp = await startSmtpServer()
    resetOutboxWorker()
    return { SMTP_URL: smtp.url }
  },
  maxConnections: 20,
})
afterAll(async () => {
  await outboxIdle()
  await smtp?.close()
})

const setAlerts = (apiKey: string, thresholds: unknown, email = 'owner@example.com') =>
  call('POST', '/api/v1/billing/balance_notification', {
    bearer: apiKey,
    json: { thresholds, email },
  })
const meter = (apiKey: string, tokens: number) =>
  call('POST', '/internal/v1/usage', {
    bearer: SERVICE_TOKEN,
    json: { api_key: apiKey, product: 'embeddings', tokens, usage_event_id: randomUUID() },
  })
const queued = (to: string) =>
  scalar(database.db, sql`select count(*) from email_outbox where kind = 'balance_alert' and "to" = ${to}`)
const armedOf = async (apiKey: string) =>
  (await call('GET', '/api/v1/billing/balance_notification', { bearer: apiKey })).body.armed
const purchase = (keyId: string, amount: number) =>
  applyEntry(database.db, { keyId, amount, type: 'purchase', externalRef: `purchase:${randomUUID()}` })
const refund = (keyId: string, amount: number) =>
  applyEntry(database.db, { keyId, amount: -amount, type: 'refund', externalRef: `refund:${randomUUID()}` })

describe('balance alerts (reliability test 22, invariant I7)', () => {
  it('fires two alerts for one debit crossing two thresholds, each e-mailed once, and again after a top-up', async () => {
    const key = await keyWithBalance(database.db, 10_000)
    const to = `two-${randomUUID()}@example.com`
    const set = await setAlerts(key.apiKey, [8000, 5000], to)
    expect(set.status).toBe(200)
    expect(set.body).toEqual({ thresholds: [5000, 8000], email: to, armed: { 5000: true, 8000: true } })

    expect((await meter(key.apiKey, 6000)).body.balance).toBe(4000)
    await outboxIdle()
    expect((await meter(key.apiKey, 100)).status).toBe(200)
    await outboxIdle()
    await drainOutbox(database.db, await createMailer())
    const mails = smtp.received.filter((m) => m.to.includes(to))
    expect(mails).toHaveLength(2)
    expect(mails.map((m) => /below ([\d,]+) tokens/.exec(m.raw)?.[1]).sort()).toEqual(['5,000', '8,000'])
    expect(mails[0].raw).not.toContain(key.apiKey)

    await applyEntry(database.db, {
      keyId: key.id,
      amount: 10_000,
      type: 'purchase',
      externalRef: `purchase:${randomUUID()}`,
    })
    expect((await call('GET', '/api/v1/billing/balance_notification', { bearer: key.apiKey })).body.armed).toEqual({
      5000: true,
      8000: true,
    })
    await meter(key.apiKey, 7000) // 13,900 → 6,900: only 8,000 is crossed
    await outboxIdle()
    expect(await queued(to)).toBe(3)
    expect(smtp.received.filter((m) => m.to.includes(to))).toHaveLength(3)
  })

  it('refuses a fourth threshold with the exact message and keeps the alerts it had', async () => {
    const key = await keyWithBalance(database.db, 100)
    expect((await setAlerts(key.apiKey, [10, 20, 30])).status).toBe(200)
    const refused = await setAlerts(key.apiKey, [10, 20, 30, 40])
    expect(refused).toMatchObject({
      status: 400,
      body: { detail: 'Invalid thresholds: Must be array with max 3 values' },
    })
    expect((await setAlerts(key.apiKey, 'not-an-array')).body).toEqual({
      detail: 'Invalid thresholds: Must be array with max 3 values',
    })
    expect((await call('GET', '/api/v1/billing/balance_notification', { bearer: key.apiKey })).body.thresholds).toEqual(
      [10, 20, 30],
    )
  })

  it('starts a threshold above the balance disarmed, so it waits for a real downward crossing', async () => {
    const key = await keyWithBalance(database.db, 100)
    const to = `late-${randomUUID()}@example.com`
    expect((await setAlerts(key.apiKey, [500], to)).body.armed).toEqual({ 500: false })
    await meter(key.apiKey, 50)
    expect(await queued(to)).toBe(0)
  })

  it('alerts on a threshold set above the balance only after a top-up lifted the balance back and a debit crossed it', async () => {
    const key = await keyWithBalance(database.db, 100)
    const to = `rearm-${randomUUID()}@example.com`
    expect((await setAlerts(key.apiKey, [500, 50], to)).body.armed).toEqual({ 50: true, 500: false })
    await meter(key.apiKey, 20) // 80: still above 50, and 500 waits for a crossing
    expect(await queued(to)).toBe(0)
    await purchase(key.id, 600) // 680
    expect(await armedOf(key.apiKey)).toEqual({ 50: true, 500: true })
    expect((await setAlerts(key.apiKey, [500, 50], to)).body.armed).toEqual({ 50: true, 500: true }) // setting them again changes nothing
    expect((await meter(key.apiKey, 200)).body.balance).toBe(480)
    expect(await queued(to)).toBe(1)
    expect(await armedOf(key.apiKey)).toEqual({ 50: true, 500: false })
  })

  it('alerts on a refund that crosses a threshold, with the usual mail, and again after a purchase re-armed it', async () => {
    const key = await keyWithBalance(database.db, 1000)
    const to = `refund-${randomUUID()}@example.com`
    await setAlerts(key.apiKey, [500], to)
    expect(await refund(key.id, 600)).toMatchObject({ balance: 400, alerts: 1 })
    const [mail] = rowsOf<{ subject: string; text: string; meta: unknown }>(
      await database.db.execute(sql`select subject, text, meta from email_outbox where "to" = ${to}`),
    )
    expect(mail).toEqual({
      subject: 'Lodestar AI: your API key balance fell below 500 tokens',
      text: `Your API key ${key.apiKey.slice(0, 8)}…${key.apiKey.slice(-4)} has 400 tokens left, below the alert threshold of 500 tokens you set.\n\nTop up or change your alerts: http://localhost:3000/api-dashboard/billing\n`,
      meta: { key_id: key.id, threshold: 500, balance: 400 },
    })
    expect(await purchase(key.id, 100)).toMatchObject({ balance: 500, alerts: 0 }) // back at the threshold: re-armed
    expect(await armedOf(key.apiKey)).toEqual({ 500: true })
    expect(await refund(key.id, 1)).toMatchObject({ balance: 499, alerts: 1 })
    expect(await queued(to)).toBe(2)
  })

  it('does not mail the sender of a transfer about its emptied balance, and re-arms the receiver', async () => {
    const sender = await keyWithBalance(database.db, 1000)
    const receiver = await keyWithBalance(database.db, 0)
    const to = `transfer-${randomUUID()}@example.com`
    await setAlerts(sender.apiKey, [500], to)
    expect((await setAlerts(receiver.apiKey, [100], to)).body.armed).toEqual({ 100: false })
    expect(await transferBalance(database.db, bySystem, sender.id, receiver.id)).toMatchObject({
      sender_balance: 0,
      receiver_balance: 1000,
    })
    expect(await queued(to)).toBe(0)
    expect(await armedOf(receiver.apiKey)).toEqual({ 100: true })
  })

  it('removes all alerts on DELETE', async () => {
    const key = await keyWithBalance(database.db, 100)
    await setAlerts(key.apiKey, [50])
    const deleted = await call('DELETE', '/api/v1/billing/balance_notification', {
      bearer: key.apiKey,
    })
    expect(deleted.body).toEqual({ thresholds: [], email: null, armed: {} })
  })
})

describeWithService('TEST_DATABASE_URL', 'balance alerts under concurrency [PG]', () => {
  it('queues exactly one alert when 100 concurrent debits cross a threshold', async () => {
    const key = await keyWithBalance(database.db, 1000)
    const to = `race-${randomUUID()}@example.com`
    await setAlerts(key.apiKey, [500], to)
    await Promise.all(
      Array.from({ length: 100 }, () =>
        consume(database.db, { keyId: key.id, tokens: 10, usageEventId: randomUUID(), product: 'reranker' }),
      ),
    )
    expect(await queued(to)).toBe(1)
  })
})
