import { randomUUID } from 'node:crypto'
import { sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { rowsOf } from '~/server/db/rows'
import { bySystem } from '~/server/domain/audit'
import { purchasesOfKey } from '~/server/domain/purchases'
import { transferBalance } from '~/server/domain/transfers'
import { keyWithBalance, apiDatabase } from '../support/api'

const database = apiDatabase()

const one = async <T>(query: ReturnType<typeof sql>) => rowsOf<T>(await database.db.execute(query))[0]
const all = async <T>(query: ReturnType<typeof sql>) => rowsOf<T>(await database.db.execute(query))

/** A paid, premium key with auto-recharge, a purchase, a classifier, a finished bulk job and two alerts. */
async function equippedSender() {
  const sender = await keyWithBalance(database.db, 2_000_000_000)
  await database.db.execute(sql`
    update api_keys set email = 'buyer@example.com', speed_level = 2, auto_recharge = true,
           auto_recharge_threshold = 1000
     where id = ${sender.id}::uuid`)
  await database.db.execute(sql`
    insert into purchases (key_id, provider, kind, price_id, tokens, amount, currency, status, paid_at)
    values (${sender.id}::uuid, 'sandbox', 'checkout', 'price_tokens_11b', 2000000000, 50000, 'usd', 'paid', now())`)
  const classifierId = randomUUID()
  await database.db.execute(sql`
    insert into classifiers (id, key_id, model_name, engine_model, access, labels, weights)
    values (${classifierId}::uuid, ${sender.id}::uuid, 'tickets', 'builtin/embeddings-v3', 'private',
            '["a","b"]'::jsonb, '\\x00'::bytea)`)
  const jobId = randomUUID()
  await database.db.execute(sql`
    insert into bulk_jobs (id, key_id, model, file_name, status, total_rows, total_tokens, batch_size, input_object)
    values (${jobId}::uuid, ${sender.id}::uuid, 'embeddings-v3', 'texts.csv', 'completed', 2, 10, 256, 'in/x')`)
  await database.db.execute(sql`
    insert into balance_notifications (key_id, threshold, email, armed)
    values (${sender.id}::uuid, 5000000, 'alerts@example.com', true),
           (${sender.id}::uuid, 100000, 'alerts@example.com', true)`)
  return { ...sender, classifierId, jobId }
}

const keyRow = (id: string) =>
  one<{ email: string | null; speed_level: number; auto_recharge: boolean; balance: string }>(
    sql`select email, speed_level, auto_recharge, balance from api_keys where id = ${id}::uuid`,
  )

describe('a transfer carries what follows the tokens and leaves what charges a card', () => {
  it('moves status, purchase history, classifiers, bulk jobs and alerts; auto-recharge stays off on the receiver', async () => {
    const sender = await equippedSender()
    const receiver = await keyWithBalance(database.db, 0)

    await transferBalance(database.db, bySystem, sender.id, receiver.id)

    // Status follows bought tokens: two billion bought tokens are no longer labelled a trial.
    expect(await keyRow(receiver.id)).toMatchObject({
      email: 'buyer@example.com',
      speed_level: 2,
      auto_recharge: false,
    })
    expect(Number((await keyRow(receiver.id)).balance)).toBe(2_000_000_000)
    // The revoked sender charges no card any more.
    expect((await keyRow(sender.id)).auto_recharge).toBe(false)
    // Receipts follow the tokens.
    const history = await purchasesOfKey(database.db, receiver.id)
    expect(history.map((p) => [p.keyId, p.tokens])).toEqual([[sender.id, 2_000_000_000]])
    expect(
      await one<{ key_id: string }>(sql`select key_id from classifiers where id = ${sender.classifierId}::uuid`),
    ).toEqual({ key_id: receiver.id })
    expect(await one<{ key_id: string }>(sql`select key_id from bulk_jobs where id = ${sender.jobId}::uuid`)).toEqual({
      key_id: receiver.id,
    })
    const alerts = await all<{ threshold: string; email: string; armed: boolean }>(
      sql`select threshold, email, armed from balance_notifications where key_id = ${receiver.id}::uuid order by threshold`,
    )
    expect(alerts.map((a) => [Number(a.threshold), a.email, a.armed])).toEqual([
      [100_000, 'alerts@example.com', true],
      [5_000_000, 'alerts@example.com', true],
    ])
  })

  it("keeps the receiver's own alerts and auto-recharge, and follows purchases through a chain of transfers", async () => {
    const sender = await equippedSender()
    const middle = await keyWithBalance(database.db, 0)
    const receiver = await keyWithBalance(database.db, 10)
    await database.db.execute(sql`
      update api_keys set auto_recharge = true, auto_recharge_threshold = 500 where id = ${receiver.id}::uuid`)
    await database.db.execute(sql`
      insert into balance_notifications (key_id, threshold, email, armed)
      values (${receiver.id}::uuid, 42, 'mine@example.com', true)`)

    await transferBalance(database.db, bySystem, sender.id, middle.id)
    await transferBalance(database.db, bySystem, middle.id, receiver.id)

    expect(await keyRow(receiver.id)).toMatchObject({ email: 'buyer@example.com', speed_level: 2, auto_recharge: true })
    const alerts = await all<{ threshold: string; email: string }>(
      sql`select threshold, email from balance_notifications where key_id = ${receiver.id}::uuid`,
    )
    expect(alerts.map((a) => [Number(a.threshold), a.email])).toEqual([[42, 'mine@example.com']])
    expect((await purchasesOfKey(database.db, receiver.id)).map((p) => p.keyId)).toEqual([sender.id])
    // The middle key is revoked; the purchase is listed once, at the end of the chain.
    expect(await one(sql`select key_id from classifiers where id = ${sender.classifierId}::uuid`)).toEqual({
      key_id: receiver.id,
    })
  })

  it("shares a paid sender's status with every key of the receiver's account; a trial sender changes no status", async () => {
    const uid = `transfer-${randomUUID()}`
    const receiver = await keyWithBalance(database.db, 0)
    const sibling = await keyWithBalance(database.db, 0)
    await database.db.execute(
      sql`update api_keys set owner_id = ${uid} where id in (${receiver.id}::uuid, ${sibling.id}::uuid)`,
    )
    const trial = await keyWithBalance(database.db, 100)
    await transferBalance(database.db, bySystem, trial.id, receiver.id)
    expect(await keyRow(receiver.id)).toMatchObject({ email: null, speed_level: 1 })

    const paid = await equippedSender()
    await transferBalance(database.db, bySystem, paid.id, receiver.id)
    expect(await keyRow(sibling.id)).toMatchObject({ email: 'buyer@example.com', speed_level: 2 })
  })
})
