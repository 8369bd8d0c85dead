import { and, asc, eq, isNull, sql } from 'drizzle-orm'
import { rowsOf } from '../db/rows'
import { apiKeys, billingDebts } from '../db/schema'
import type { Tx } from '../db/types'
import { applyEntry } from './ledger'

/** A transfer chain longer than this is not a chain but a bug: stop rather than loop. */
const MAX_HOPS = 10_000

/**
 * The key that holds `keyId`'s tokens now: the key itself while it is live (or revoked by its owner, whose
 * tokens stay frozen on it), else the receiver of its transfer, followed to the end of the chain. A key a
 * transfer revoked takes no entry after its transfer out (a refund follows the chain past it), so that entry
 * is its last one: one index read per key, however many entries the key has. Reads without locks: a caller
 * that must act on the holder locks it and checks it was not moved meanwhile.
 */
export async function currentHolder(tx: Tx, keyId: string): Promise<string> {
  let id = keyId
  for (let hop = 0; hop < MAX_HOPS; hop++) {
    const [row] = rowsOf<{ next: string | null }>(
      await tx.execute(sql`
        select case when k.revoked_at is not null then
            (select case when e.type = 'transfer_out' then e.counterparty_key_id end
              from ledger_entries e where e.key_id = k.id order by e.id desc limit 1)
          end as next
        from api_keys k where k.id = ${id}::uuid`),
    )
    if (!row?.next) return id
    id = row.next
  }
  throw new Error(`The transfer chain from key ${keyId} is longer than ${MAX_HOPS} keys`)
}

/**
 * A transfer hands its sender's open debts to the receiver with the balance, so a debt is never left on a
 * revoked key. The caller holds both keys' row locks.
 */
export async function carryDebts(tx: Tx, senderId: string, receiverId: string): Promise<void> {
  await tx
    .update(billingDebts)
    .set({ keyId: receiverId })
    .where(and(eq(billingDebts.keyId, senderId), isNull(billingDebts.settledAt)))
}

/**
 * Pays the key's open debts from its balance, oldest first, as far as the balance goes: a key that owes
 * keeps nothing spendable until its debt is paid. Each payment is an `adjustment` entry named after the debt
 * and what it has paid in all, so a payment lands once. The caller holds the key's row lock (a credit it
 * just applied took it). Returns what was paid and the balance left.
 */
export async function settleDebts(tx: Tx, keyId: string): Promise<{ paid: number; balance: number }> {
  const debts = await tx
    .select()
    .from(billingDebts)
    .where(and(eq(billingDebts.keyId, keyId), isNull(billingDebts.settledAt)))
    .orderBy(asc(billingDebts.createdAt), asc(billingDebts.id))
  const [key] = await tx.select({ balance: apiKeys.balance }).from(apiKeys).where(eq(apiKeys.id, keyId))
  let balance = key?.balance ?? 0
  let paid = 0
  for (const debt of debts) {
    if (balance <= 0) break
    const payment = Math.min(balance, debt.tokens - debt.settledTokens)
    const settledTokens = debt.settledTokens + payment
    const entry = await applyEntry(tx, {
      keyId,
      amount: -payment,
      type: 'adjustment',
      externalRef: `debt:${debt.id}:${settledTokens}`,
      product: 'tokens',
    })
    await tx
      .update(billingDebts)
      .set({ settledTokens, settledAt: settledTokens === debt.tokens ? sql`now()` : null })
      .where(eq(billingDebts.id, debt.id))
    balance = entry.balance
    paid += payment
  }
  return { paid, balance }
}
