import { randomUUID } from 'node:crypto'
import { eq, sql } from 'drizzle-orm'
import { rowsOf } from '../db/rows'
import { apiKeys } from '../db/schema'
import type { TransferResult } from '~/contracts/billing'
import type { Db, Tx } from '../db/types'
import { shareAccountStatus } from './account-keys'
import { KeyRevoked, NothingToTransfer, ReceiverNotFound, SameKeyTransfer, SharedBalanceKey } from './refusals'
import { carryDebts, settleDebts } from './debts'
import { applyEntries, entryResult, type EntryInput } from './ledger'
import { recordAudit, type AuditBy } from './audit'
import { refuseTransferOf } from './key-controls'
import { refuseTransferPastLimits } from './spend-limits'

/**
 * What else follows the tokens (README "Transfers"): status follows bought tokens, so a paid or premium
 * sender makes the receiver (and its account) so; the sender's classifiers, bulk jobs and balance alerts (these
 * only when the receiver has none) move, as they would be unreachable on a revoked key; purchase history follows
 * through the ledger (`purchasesOfKey`). What charges a card stays behind: the sender's auto-recharge ends with
 * it, and the receiver's stays as its holder set it.
 */
async function carryTheRest(tx: Tx, senderId: string, receiverId: string): Promise<void> {
  const [receiver] = rowsOf<{ owner_id: string | null; balance: string | number }>(
    await tx.execute(sql`
      update api_keys r
         set email = coalesce(r.email, s.email), speed_level = greatest(r.speed_level, s.speed_level)
        from api_keys s
       where s.id = ${senderId}::uuid and r.id = ${receiverId}::uuid
      returning r.owner_id, r.balance`),
  )
  if (receiver?.owner_id) await shareAccountStatus(tx, receiver.owner_id)
  await tx.execute(
    sql`update api_keys set auto_recharge = false, auto_recharge_threshold = null where id = ${senderId}::uuid`,
  )
  await tx.execute(sql`update classifiers set key_id = ${receiverId}::uuid where key_id = ${senderId}::uuid`)
  await tx.execute(sql`update bulk_jobs set key_id = ${receiverId}::uuid where key_id = ${senderId}::uuid`)
  // Armed as a saved alert would be against the receiver's new balance.
  await tx.execute(sql`
    insert into balance_notifications (key_id, threshold, email, armed)
    select ${receiverId}::uuid, n.threshold, n.email, ${Number(receiver?.balance ?? 0)} >= n.threshold
      from balance_notifications n
     where n.key_id = ${senderId}::uuid
       and not exists (select 1 from balance_notifications where key_id = ${receiverId}::uuid)`)
}

/**
 * Moves the sender's whole balance to the receiver and revokes the sender, atomically (invariant I5), with
 * the sender's open debts (see `settleDebts`), unless the sender's controls forbid spending that balance.
 * Both rows are locked in id order, so A→B racing B→A queue up instead of deadlocking; the loser then
 * finds its sender (or receiver) revoked and is refused.
 */
export async function transferBalance(
  db: Db,
  by: AuditBy,
  senderId: string,
  receiverId: string,
): Promise<TransferResult> {
  if (senderId === receiverId) throw new SameKeyTransfer()
  return db.transaction(async (tx) => {
    // Project limits before key rows, in the ledger's order (spend_limits_lock_projects): never the other way round.
    await tx.execute(sql`select spend_limits_lock_projects(array[${senderId}::uuid, ${receiverId}::uuid])`)
    const locked = rowsOf<{ id: string; balance: string | number; revoked: boolean }>(
      await tx.execute(sql`
        select id, balance, revoked_at is not null as revoked from api_keys
        where id in (${senderId}::uuid, ${receiverId}::uuid) order by id for update`),
    )
    const sender = locked.find((k) => k.id === senderId)
    const receiver = locked.find((k) => k.id === receiverId)
    if (!sender || sender.revoked) throw new KeyRevoked(senderId)
    if (!receiver || receiver.revoked) throw new ReceiverNotFound()
    // A key on a shared balance has none of its own to move, nor takes one: the organisation's is bought for it.
    const [controlled] = await tx.select().from(apiKeys).where(eq(apiKeys.id, senderId))
    const [other] = await tx
      .select({ balanceKeyId: apiKeys.balanceKeyId })
      .from(apiKeys)
      .where(eq(apiKeys.id, receiverId))
    if (controlled.balanceKeyId || other.balanceKeyId) throw new SharedBalanceKey()
    const amount = Number(sender.balance)
    if (amount <= 0) throw new NothingToTransfer()
    // The sender's controls, read under the lock just taken: a cap, scope or expiry set a moment ago counts.
    refuseTransferOf(controlled, amount)
    await refuseTransferPastLimits(tx, senderId, amount)
    const transferId = randomUUID()
    const entries: EntryInput[] = [
      {
        keyId: senderId,
        amount: -amount,
        type: 'transfer_out',
        externalRef: `transfer:${transferId}:out`,
        counterpartyKeyId: receiverId,
      },
      {
        keyId: receiverId,
        amount,
        type: 'transfer_in',
        externalRef: `transfer:${transferId}:in`,
        counterpartyKeyId: senderId,
      },
    ]
    // Both halves in one statement; either refusal throws and rolls the transaction back.
    const [out, into] = (await applyEntries(tx, entries)).map((outcome, i) => entryResult(outcome, entries[i]))
    await tx.execute(sql`update api_keys set revoked_at = now() where id = ${senderId}::uuid`)
    const moved = { transfer_id: transferId, tokens: amount }
    await recordAudit(tx, by, { action: 'key.transferred_out', keyId: senderId, details: { ...moved, to: receiverId } })
    await recordAudit(tx, by, {
      action: 'key.transferred_in',
      keyId: receiverId,
      details: { ...moved, from: senderId },
    })
    await recordAudit(tx, by, { action: 'key.revoked', keyId: senderId, details: { by: 'transfer' } })
    // Debts follow the tokens: what the sender owes goes with its balance, and the receiver's open debts
    // (its own and those) are paid from what it now holds.
    await carryDebts(tx, senderId, receiverId)
    const { paid, balance } = await settleDebts(tx, receiverId)
    await carryTheRest(tx, senderId, receiverId)
    return {
      transfer_id: transferId,
      amount,
      sender_balance: out.balance,
      receiver_balance: paid > 0 ? balance : into.balance,
      sender_revoked: true,
    }
  })
}
