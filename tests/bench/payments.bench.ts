/**
 * Webhook fulfilment against real Postgres: N paid checkouts, each `checkout.session.completed` delivered
 * twice and concurrently, through the receiver the webhook route calls (signature check, event record,
 * the service's facts, the credit under the purchase's lock, the event marked processed). Every purchase
 * must be credited exactly once. Writes its figures to tests/bench/.results/payments.json.
 */
import { randomUUID } from 'node:crypto'
import Stripe from 'stripe'
import { sql } from 'drizzle-orm'
import { expect, test } from 'vitest'
import { paymentProvider } from '~/server/api/payments/provider'
import { receiveWebhook } from '~/server/api/payments/webhook'
import { openDatabase, useDatabase } from '~/server/db/client'
import { migrate } from '~/server/db/migrate'
import { rowsOf } from '~/server/db/rows'
import { auditLedger } from '~/server/domain/ledger'
import { createPurchase } from '~/server/domain/purchases'
import { packByPriceId } from '~/server/domain/packs'
import { writeObject } from '~/server/providers/payments/sandbox/store'
import { recordResults } from './support/results'

const ADMIN_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'
const PURCHASES = Number(process.env.BENCH_PURCHASES ?? 1000)
const CONCURRENCY = Number(process.env.BENCH_WEBHOOK_CONCURRENCY ?? 16)
const SECRET = 'whsec_bench_sandbox_secret_0123456789'

test('webhook fulfilment throughput', async () => {
  process.env.PAYMENTS_SANDBOX = 'on'
  process.env.PAYMENTS_SANDBOX_SECRET = SECRET
  const name = `bench_pay_${Date.now().toString(36)}`
  const admin = await openDatabase({ url: ADMIN_URL, maxConnections: 1 })
  await admin.db.execute(sql.raw(`create database "${name}"`))
  const url = new URL(ADMIN_URL)
  url.pathname = `/${name}`
  const database = await openDatabase({ url: url.toString(), maxConnections: CONCURRENCY + 4 })
  useDatabase(database)
  try {
    const db = database.db
    await migrate(db)
    const pack = packByPriceId('price_tokens_1b')!
    const provider = paymentProvider()
    const signer = new Stripe('sk_test_bench')
    const events: Array<{ payload: string; signature: string }> = []
    for (let i = 0; i < PURCHASES; i++) {
      const keyId = randomUUID()
      await db.execute(
        sql`insert into api_keys (id, key_hash, prefix, last4) values (${keyId}::uuid, ${`bench-${keyId}`}, 'lds_bench', 'x')`,
      )
      const purchase = await createPurchase(db, {
        keyId,
        provider: 'sandbox',
        kind: 'checkout',
        priceId: pack.price_id,
        tokens: pack.token_quantity,
        amount: pack.price * 100,
        currency: pack.currency,
        email: 'bench@example.com',
      })
      const session = `cs_test_bench${i}`
      await db.execute(sql`update purchases set checkout_session_id = ${session} where id = ${purchase.id}::uuid`)
      await writeObject(db, {
        id: session,
        object: 'checkout.session',
        status: 'complete',
        payment_status: 'paid',
        amount_total: pack.price * 100,
        currency: 'usd',
        customer: null,
        customer_email: 'bench@example.com',
        line_items: { data: [{ price: { id: 'price_x', lookup_key: pack.price_id }, quantity: 1 }] },
        payment_intent: null,
      })
      const payload = JSON.stringify({
        id: `evt_bench${i}`,
        object: 'event',
        type: 'checkout.session.completed',
        data: { object: { id: session } },
      })
      events.push({ payload, signature: signer.webhooks.generateTestHeaderString({ payload, secret: SECRET }) })
    }
    // Each event twice, shuffled among the others: a redelivery must find its purchase credited.
    const deliveries = [...events, ...events].sort(() => Math.random() - 0.5)
    let next = 0
    const started = performance.now()
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < deliveries.length) {
          const { payload, signature } = deliveries[next++]
          await receiveWebhook(undefined, provider, payload, signature)
        }
      }),
    )
    const seconds = (performance.now() - started) / 1000
    const [{ credits }] = rowsOf<{ credits: number }>(
      await db.execute(sql`select count(*)::int as credits from ledger_entries where type = 'purchase'`),
    )
    expect(credits).toBe(PURCHASES)
    expect(await auditLedger(db)).toEqual([])
    const [version] = rowsOf<{ v: string }>(await db.execute(sql`select current_setting('server_version') as v`))
    recordResults('payments', [
      {
        name: 'webhook deliveries/s',
        value: Math.round(deliveries.length / seconds),
        unit: 'events/s',
        note: `${PURCHASES} paid checkouts, each checkout.session.completed delivered twice, ${CONCURRENCY} at once, sandbox provider, Postgres ${version.v}`,
      },
      {
        name: 'webhook fulfilments/s (credited purchases)',
        value: Math.round(PURCHASES / seconds),
        unit: 'purchases/s',
        note: `${credits} credits for ${PURCHASES} purchases; ledger audit passed`,
      },
    ])
  } finally {
    useDatabase(undefined)
    await database.close()
    await admin.db.execute(sql.raw(`drop database if exists "${name}" with (force)`))
    await admin.close()
  }
})
