import { randomUUID } from 'node:crypto'
import { sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { rowsOf } from '~/server/db/rows'
import { bySystem } from '~/server/domain/audit'
import { revokeKey } from '~/server/domain/keys'
import { auditLedger } from '~/server/domain/ledger'
import { consume } from '~/server/domain/metering'
import { transferBalance } from '~/server/domain/transfers'
import { keyWithBalance, scalar, apiDatabase } from '../support/api'
import { outcomeOf } from '../support/outcome'
import { buyPack, postWebhook, SANDBOX_SECRET, signedEvent } from '../support/payments'
import { describeWithService } from '../support/services'

/**
 * A refund or dispute of a purchase whose tokens were transferred on is settled on the key that holds them
 * now, never left on the revoked keys they passed through, and its owner is told.
 */
const database = apiDatabase({ env: { PAYMENTS_SANDBOX_SECRET: SANDBOX_SECRET }, maxConnections: 30 })

const PACK = 1_000_000_000
const db = () => database.db
const rows = async <T>(query: ReturnType<typeof sql>) => rowsOf<T>(await db().execute(query))
const balanceOf = (id: string) => scalar(db(), sql`select balance from api_keys where id = ${id}::uuid`)

/** A key of its own owner, whose mail goes to `email`. */
async function ownedKey(email: string, balance = 0) {
  const key = await keyWithBalance(db(), balance)
  await db().execute(sql`update api_keys set email = ${email} where id = ${key.id}::uuid`)
  return { ...key, email }
}

/** Buys the 1B pack for the key in the sandbox; answers the payment intent refunds and disputes name. */
async function bought(apiKey: string, keyId: string): Promise<string> {
  await buyPack(apiKey)
  const [row] = await rows<{ id: string }>(
    sql`select payment_intent_id as id from purchases where key_id = ${keyId}::uuid and status = 'paid'
      order by paid_at desc limit 1`,
  )
  return row.id
}

/** The service's `charge.refunded` for the pack, `refunded` of its 5,000 cents back so far. */
const refundOf = (intent: string, refunded = 5000) =>
  signedEvent('charge.refunded', {
    id: `ch_${intent}`,
    payment_intent: intent,
    amount: 5000,
    amount_refunded: refunded,
  })
const disputeOf = (intent: string) =>
  signedEvent('charge.dispute.created', { id: `dp_${intent}`, payment_intent: intent, amount: 5000 })

async function deliver(event: { payload: string; signature: string }) {
  const answer = await postWebhook(event.payload, event.signature)
  expect(answer.status).toBe(200)
}

const spend = (keyId: string, tokens: number) =>
  consume(db(), { keyId, tokens, usageEventId: randomUUID(), product: 'embeddings' })

const openDebtOf = (keyId: string) =>
  scalar(
    db(),
    sql`select coalesce(sum(tokens - settled_tokens), 0) from billing_debts where key_id = ${keyId}::uuid and settled_at is null`,
  )

const refundEntries = (keyId: string) =>
  rows<{ amount: number }>(
    sql`select amount::float8 as amount from ledger_entries where key_id = ${keyId}::uuid and type = 'refund'`,
  )

const mailsTo = (email: string) =>
  rows<{ subject: string; text: string }>(
    sql`select subject, text from email_outbox where kind = 'purchase_reversed' and "to" = ${email} order by created_at`,
  )

/** I1–I3 and the rule of this file: balances are their entries, none negative, no open debt on a revoked key. */
async function expectInvariants() {
  expect(await auditLedger(db())).toEqual([])
  expect(await scalar(db(), sql`select count(*) from api_keys where balance < 0`)).toBe(0)
  expect(
    await scalar(
      db(),
      sql`select count(*) from billing_debts d join api_keys k on k.id = d.key_id
        where d.settled_at is null and k.revoked_at is not null`,
    ),
  ).toBe(0)
  expect(
    await scalar(
      db(),
      sql`select count(*) from billing_debts where settled_tokens > tokens or (settled_at is null) <> (settled_tokens < tokens)`,
    ),
  ).toBe(0)
}

describe('a refund after buy → transfer → transfer', () => {
  it('takes the tokens back from the key that holds them now, once, and tells its owner', async () => {
    const buyer = await ownedKey('a-owner@example.com')
    const middle = await ownedKey('b-owner@example.com')
    const holder = await ownedKey('c-owner@example.com')
    const intent = await bought(buyer.apiKey, buyer.id)
    await transferBalance(db(), bySystem, buyer.id, middle.id)
    await transferBalance(db(), bySystem, middle.id, holder.id)
    expect(await balanceOf(holder.id)).toBe(PACK)

    const refund = refundOf(intent)
    await deliver(refund)
    await deliver(refund)
    // The same refund in another event (the service may send one per update): still taken once.
    await deliver(refundOf(intent))

    expect(await balanceOf(holder.id)).toBe(0)
    expect(await refundEntries(holder.id)).toEqual([{ amount: -PACK }])
    for (const key of [buyer, middle]) {
      expect(await balanceOf(key.id)).toBe(0)
      expect(await refundEntries(key.id)).toEqual([])
      expect(await openDebtOf(key.id)).toBe(0)
    }
    expect(await openDebtOf(holder.id)).toBe(0)
    const mails = await mailsTo(holder.email)
    expect(mails).toHaveLength(1)
    expect(mails[0].subject).toMatch(/1,000,000,000 tokens taken back .* after a refund/)
    expect(mails[0].text).toMatch(/came to it by a balance transfer/)
    expect(mails[0].text).toMatch(/balance, which is now 0 tokens/)
    expect(await mailsTo(buyer.email)).toEqual([])
    await expectInvariants()
  })

  it('takes a dispute back from the last key too, and stops auto-recharge there and on the buyer', async () => {
    const buyer = await ownedKey('dispute-a@example.com')
    const middle = await ownedKey('dispute-b@example.com')
    const holder = await ownedKey('dispute-c@example.com')
    const intent = await bought(buyer.apiKey, buyer.id)
    await transferBalance(db(), bySystem, buyer.id, middle.id)
    await transferBalance(db(), bySystem, middle.id, holder.id)
    await db().execute(
      sql`update api_keys set auto_recharge = true, auto_recharge_threshold = 1000
        where id in (${buyer.id}::uuid, ${holder.id}::uuid)`,
    )

    const dispute = disputeOf(intent)
    await deliver(dispute)
    await deliver(dispute)

    expect(await balanceOf(holder.id)).toBe(0)
    expect(await refundEntries(holder.id)).toEqual([{ amount: -PACK }])
    expect(
      await scalar(
        db(),
        sql`select count(*) from api_keys where id in (${buyer.id}::uuid, ${holder.id}::uuid) and auto_recharge`,
      ),
    ).toBe(0)
    expect((await mailsTo(holder.email))[0].subject).toMatch(/after a dispute/)
    await expectInvariants()
  })

  it('lands on the middle key when it comes before the second transfer, which then moves only what is left', async () => {
    const buyer = await ownedKey('early-a@example.com')
    const middle = await ownedKey('early-b@example.com', 300_000_000)
    const last = await ownedKey('early-c@example.com')
    const intent = await bought(buyer.apiKey, buyer.id)
    await transferBalance(db(), bySystem, buyer.id, middle.id)
    expect(await balanceOf(middle.id)).toBe(PACK + 300_000_000)

    await deliver(refundOf(intent))
    expect(await balanceOf(middle.id)).toBe(300_000_000)
    expect(await refundEntries(middle.id)).toEqual([{ amount: -PACK }])
    expect(await mailsTo(middle.email)).toHaveLength(1)

    await transferBalance(db(), bySystem, middle.id, last.id)
    expect(await balanceOf(last.id)).toBe(300_000_000)
    // Delivered again after the second transfer: nothing more is taken, from anyone.
    await deliver(refundOf(intent))
    expect(await balanceOf(last.id)).toBe(300_000_000)
    expect(await refundEntries(last.id)).toEqual([])
    expect(await mailsTo(last.email)).toEqual([])
    await expectInvariants()
  })

  it('takes a key its owner revoked back to zero instead of leaving a debt beside the tokens it froze', async () => {
    const buyer = await ownedKey('revoked-a@example.com')
    const intent = await bought(buyer.apiKey, buyer.id)
    await revokeKey(db(), bySystem, buyer.id)
    await deliver(refundOf(intent))
    expect(await balanceOf(buyer.id)).toBe(0)
    expect(await refundEntries(buyer.id)).toEqual([{ amount: -PACK }])
    expect(await openDebtOf(buyer.id)).toBe(0)
    expect(await auditLedger(db())).toEqual([])
  })
})

describe('a refund larger than what the holder has left', () => {
  it('takes what is there, records the rest as the holder’s debt, and pays it first from its next credits', async () => {
    const buyer = await ownedKey('short-a@example.com')
    const middle = await ownedKey('short-b@example.com')
    const holder = await ownedKey('short-c@example.com')
    const giver = await ownedKey('short-d@example.com', 200_000_000)
    const intent = await bought(buyer.apiKey, buyer.id)
    await transferBalance(db(), bySystem, buyer.id, middle.id)
    await spend(middle.id, 600_000_000)
    await transferBalance(db(), bySystem, middle.id, holder.id)
    expect(await balanceOf(holder.id)).toBe(400_000_000)

    await deliver(refundOf(intent))
    expect(await balanceOf(holder.id)).toBe(0)
    expect(await refundEntries(holder.id)).toEqual([{ amount: -400_000_000 }])
    expect(await openDebtOf(holder.id)).toBe(600_000_000)
    expect(await openDebtOf(middle.id)).toBe(0)
    expect((await mailsTo(holder.email))[0].text).toMatch(
      /400,000,000 tokens were taken from its balance[\s\S]*600,000,000 tokens had already been used: they are owed/,
    )
    await expectInvariants()

    // Owing, the holder has nothing to spend or to pass on: the debt cannot be left behind on a revoked key.
    expect(await outcomeOf(spend(holder.id, 1))).toBe('InsufficientBalance')
    expect(await outcomeOf(transferBalance(db(), bySystem, holder.id, giver.id))).toBe('NothingToTransfer')

    // A transfer in pays part of it.
    const moved = await transferBalance(db(), bySystem, giver.id, holder.id)
    expect(moved.receiver_balance).toBe(0)
    expect(await balanceOf(holder.id)).toBe(0)
    expect(await openDebtOf(holder.id)).toBe(400_000_000)
    await expectInvariants()

    // A purchase pays the rest and keeps what is left over.
    await bought(holder.apiKey, holder.id)
    expect(await balanceOf(holder.id)).toBe(PACK - 400_000_000)
    expect(await openDebtOf(holder.id)).toBe(0)
    expect(await spend(holder.id, 1)).toMatchObject({ balance: PACK - 400_000_000 - 1 })
    await expectInvariants()
  })

  it('carries a debt its key still owed from before with the balance that key transfers', async () => {
    const owing = await ownedKey('legacy-a@example.com', 300_000_000)
    const receiver = await ownedKey('legacy-b@example.com')
    // A debt the key's last purchase was too small to pay whole, as purchases used to leave them.
    await db().execute(
      sql`insert into billing_debts (key_id, tokens, reason, external_ref)
        values (${owing.id}::uuid, 500000000, 'refund', ${`refund:legacy-${owing.id}`})`,
    )
    await transferBalance(db(), bySystem, owing.id, receiver.id)
    expect(await balanceOf(receiver.id)).toBe(0)
    expect(await openDebtOf(owing.id)).toBe(0)
    expect(await openDebtOf(receiver.id)).toBe(200_000_000)
    await expectInvariants()
  })
})

describeWithService('TEST_DATABASE_URL', 'a refund racing transfers on real Postgres', () => {
  it('follows a transfer that commits while the refund waits for the key it found', async () => {
    const buyer = await ownedKey('wait-a@example.com')
    const first = await ownedKey('wait-b@example.com')
    const second = await ownedKey('wait-c@example.com')
    const intent = await bought(buyer.apiKey, buyer.id)
    await transferBalance(db(), bySystem, buyer.id, first.id)

    // A transfer from `first` holds its lock, uncommitted, while the refund finds `first` live and waits.
    let commit!: () => void
    const committing = new Promise<void>((resolve) => (commit = resolve))
    let moved!: () => void
    const transferred = new Promise<void>((resolve) => (moved = resolve))
    const transfer = db().transaction(async (tx) => {
      await transferBalance(tx as unknown as typeof database.db, bySystem, first.id, second.id)
      moved()
      await committing
    })
    await transferred
    const refunded = deliver(refundOf(intent))
    const waiting = () =>
      scalar(
        db(),
        sql`select count(*) from pg_stat_activity where wait_event_type = 'Lock' and datname = current_database()`,
      )
    for (let tries = 0; (await waiting()) === 0; tries++) {
      if (tries > 200) throw new Error('the refund never waited for the transfer')
      await new Promise((resolve) => setTimeout(resolve, 10))
    }
    commit()
    await Promise.all([transfer, refunded])

    expect(await refundEntries(second.id)).toEqual([{ amount: -PACK }])
    expect(await refundEntries(first.id)).toEqual([])
    expect(await balanceOf(second.id)).toBe(0)
    expect(await mailsTo(second.email)).toHaveLength(1)
    expect(await mailsTo(first.email)).toEqual([])
    await expectInvariants()
  })

  it('lands once, on whichever key holds the tokens when it commits, in every interleaving', async () => {
    for (let round = 0; round < 12; round++) {
      const [buyer, first, second, third] = await Promise.all(
        ['a', 'b', 'c', 'd'].map((name) => ownedKey(`race-${round}-${name}@example.com`)),
      )
      const intent = await bought(buyer.apiKey, buyer.id)
      await transferBalance(db(), bySystem, buyer.id, first.id)
      await spend(first.id, 100_000_000)
      const refund = refundOf(intent)
      const transfers = async () => {
        // A webhook takes longer than a transfer: starting the transfers later each round moves the
        // refund's commit from after both to before the first.
        await new Promise((resolve) => setTimeout(resolve, (round % 6) * 15))
        // Either may find nothing left to move once the refund has taken it.
        for (const [from, to] of [
          [first, second],
          [second, third],
        ])
          expect(['ok', 'NothingToTransfer']).toContain(
            await outcomeOf(transferBalance(db(), bySystem, from.id, to.id)),
          )
      }
      await Promise.all([deliver(refund), transfers(), deliver(refund), deliver(refundOf(intent))])

      const keys = [buyer, first, second, third]
      const entries = (await Promise.all(keys.map((key) => refundEntries(key.id)))).flat()
      expect(entries, `round ${round}`).toEqual([{ amount: -900_000_000 }])
      const debts = await Promise.all(keys.map((key) => openDebtOf(key.id)))
      expect(debts.reduce((a, b) => a + b, 0)).toBe(100_000_000)
      const balances = await Promise.all(keys.map((key) => balanceOf(key.id)))
      expect(balances).toEqual([0, 0, 0, 0])
      const told = (await Promise.all(keys.map((key) => mailsTo(key.email)))).flat()
      expect(told).toHaveLength(1)
      await expectInvariants()
    }
  })
})
