/**
 * Webhook delivery against real Postgres and a loopback receiver: throughput (events waiting in the outbox,
 * fanned out to one endpoint and sent by one pass of the worker, each signed and recorded) and latency (an
 * event written, as a debit or a job writes it, until the receiver has it, with the worker's periodic pass as
 * a server runs it). Prints one JSON object (and writes it to BENCH_OUT when set).
 */
import { randomUUID } from 'node:crypto'
import { writeFile } from 'node:fs/promises'
import { sql } from 'drizzle-orm'
import { expect, test } from 'vitest'
import { openDatabase } from '~/server/db/client'
import { migrate } from '~/server/db/migrate'
import { rowsOf } from '~/server/db/rows'
import { bySystem } from '~/server/domain/audit'
import { createEndpoint } from '~/server/domain/webhook-endpoints'
import { emitWebhookEvent } from '~/server/domain/webhook-events'
import { ensureUser } from '~/server/domain/users'
import { ensurePersonalOrganisation } from '~/server/domain/organisations'
import { sealKey } from '~/server/providers/identity/key-crypto'
import { serverEnv } from '~/server/env'
import { secretBinding } from '~/server/api/webhooks/endpoints'
import { runWebhooks, startWebhookWorker, stopWebhookWorker } from '~/server/api/webhooks/worker'
import { startReceiver } from '../support/webhook-receiver'

const ADMIN_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'
const EVENTS = Number(process.env.BENCH_WEBHOOK_EVENTS ?? 2_000)
const LATENCY_RUNS = Number(process.env.BENCH_WEBHOOK_RUNS ?? 50)

const percentile = (values: number[], q: number) =>
  Number([...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))].toFixed(1))

test('webhook delivery throughput and latency', async () => {
  process.env.WEBHOOKS_ALLOW_PRIVATE_NETWORKS = 'true'
  process.env.LOG_LEVEL = 'warn'
  const name = `bench_hooks_${Date.now().toString(36)}`
  const admin = await openDatabase({ url: ADMIN_URL, maxConnections: 1 })
  await admin.db.execute(sql.raw(`create database "${name}"`))
  const url = new URL(ADMIN_URL)
  url.pathname = `/${name}`
  // The periodic worker opens the server's database (getDb): this one.
  process.env.DATABASE_URL = url.toString()
  const database = await openDatabase({ url: url.toString(), maxConnections: 10 })
  const receiver = await startReceiver()
  try {
    const db = database.db
    await migrate(db)
    const uid = `bench-${randomUUID()}`
    await ensureUser(db, { uid, email: `${uid}@example.com` })
    const organisationId = await ensurePersonalOrganisation(db, uid)
    const owner = { accountId: uid, organisationId }
    const id = randomUUID()
    const secret = `whsec_${Buffer.from(randomUUID()).toString('base64')}`
    await createEndpoint(db, bySystem, owner, uid, {
      id,
      url: receiver.url('/bench'),
      events: ['bulk_job.completed'],
      description: null,
      secretCiphertext: await sealKey(serverEnv(), secretBinding(id), secret),
    })
    const emit = () => emitWebhookEvent(db, { type: 'bulk_job.completed', ...owner, data: { job_id: randomUUID() } })

    // Throughput: EVENTS waiting, delivered by passes of the worker until none is left.
    for (let i = 0; i < EVENTS; i += 500) await Promise.all(Array.from({ length: Math.min(500, EVENTS - i) }, emit))
    const started = performance.now()
    let delivered = 0
    while (delivered < EVENTS) {
      const pass = await runWebhooks(db)
      if (pass.delivered === 0 && pass.failed === 0) break
      delivered += pass.delivered
    }
    const seconds = (performance.now() - started) / 1000
    expect(receiver.at('/bench')).toHaveLength(EVENTS)

    // Latency: one event at a time, found by the periodic pass a server runs (every second).
    startWebhookWorker()
    const latencies: number[] = []
    for (let run = 0; run < LATENCY_RUNS; run++) {
      // At a random moment of the worker's second, as events come.
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 1000))
      const before = receiver.at('/bench').length
      const t = performance.now()
      await emit()
      while (receiver.at('/bench').length === before) {
        if (performance.now() - t > 10_000) throw new Error('an event was not delivered within 10 s')
        await new Promise((resolve) => setTimeout(resolve, 2))
      }
      latencies.push(performance.now() - t)
    }
    await stopWebhookWorker()
    const [{ n }] = rowsOf<{ n: string }>(
      await db.execute(sql`select count(*) as n from webhook_deliveries where status = 'delivered'`),
    )
    const result = {
      benchmark: 'webhook-delivery',
      events: EVENTS,
      throughput: { seconds: Number(seconds.toFixed(2)), per_second: Math.round(EVENTS / seconds) },
      latency: {
        runs: LATENCY_RUNS,
        p50_ms: percentile(latencies, 0.5),
        p90_ms: percentile(latencies, 0.9),
        max_ms: percentile(latencies, 1),
      },
      delivered_rows: Number(n),
    }
    console.log(JSON.stringify(result, null, 2))
    if (process.env.BENCH_OUT) await writeFile(process.env.BENCH_OUT, JSON.stringify(result, null, 2))
    expect(Number(n)).toBe(EVENTS + LATENCY_RUNS)
  } finally {
    await stopWebhookWorker()
    await receiver.close()
    await database.close()
    await admin.db.execute(sql.raw(`drop database if exists "${name}" with (force)`))
    await admin.close()
  }
})
