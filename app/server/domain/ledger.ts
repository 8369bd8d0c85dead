import { sql } from 'drizzle-orm'
import { brand } from '../../../app.config'
import { serverEnv } from '~/server/env'
import { rowsOf } from '../db/migrate'
import type { LedgerEntryType } from '../db/schema'
import type { Db, Tx } from '../db/types'
import { EventOfAnotherKey, InsufficientBalance, KeyIdNotFound, KeyRevoked } from './refusals'
import { runStatement } from './statement'

export interface EntryInput {
  keyId: string
  /** Signed: credits positive, debits negative. */
  amount: number
  type: LedgerEntryType
  /** Names the event behind the entry; a second entry for the same event is refused. */
  externalRef: string
  product?: string
  model?: string
  counterpartyKeyId?: string
}

export interface EntryResult {
  entryId: number
  balance: number
  alerts: number
  duplicate: boolean
}

export const alertsPageUrl = () => `${serverEnv().PUBLIC_BASE_URL.replace(/\/$/, '')}/api-dashboard/notifications`

/** `format()` templates of the balance alert mail, shared with the metering batch function. Subject: brand, threshold. Body: prefix, last4, balance, threshold, link. */
export const alertMail = {
  subject: '%s: your API key balance fell below %s tokens',
  body: 'Your API key %s…%s has %s tokens left, below the alert threshold of %s tokens you set.\n\nTop up or change your alerts: %s\n',
}

/**
 * Moves a key's balance and writes its ledger entry in ONE statement (so one transaction and one round
 * trip, which keeps the row lock on a hot key short). The conditional UPDATE refuses to go below zero or
 * to touch a revoked key; the same statement disarms the thresholds this entry crosses downwards (queueing
 * their e-mails in the outbox) and re-arms those it lifts the balance back to.
 */
export async function applyEntry(db: Db | Tx, input: EntryInput): Promise<EntryResult> {
  const { keyId, amount, type, externalRef } = input
  const subject = sql`format(${alertMail.subject}::text, ${brand.name}::text, to_char(f.threshold, 'FM999,999,999,999,990'))`
  const body = sql`format(${alertMail.body}::text,
    f.prefix, f.last4, to_char(f.balance, 'FM999,999,999,999,990'), to_char(f.threshold, 'FM999,999,999,999,990'), ${alertsPageUrl()}::text)`
  // A transfer revokes the sender: telling its holder the balance is low would only confuse.
  const notifies = type !== 'transfer_out'
  let rows: Array<{ entry_id: string | number; balance: string | number; alerts: string | number }>
  try {
    rows = rowsOf(
      await runStatement(db, sql`
        with moved as (
          update api_keys set balance = balance + ${amount}::bigint
          where id = ${keyId}::uuid and revoked_at is null and balance + ${amount}::bigint >= 0
            and not exists (select 1 from ledger_entries where external_ref = ${externalRef})
          returning id, balance, prefix, last4
        ), entry as (
          insert into ledger_entries (key_id, type, amount, balance_after, external_ref, product, model, counterparty_key_id)
          select id, ${type}, ${amount}::bigint, balance, ${externalRef}, ${input.product ?? null}, ${input.model ?? null}, ${input.counterpartyKeyId ?? null}::uuid
          from moved
          returning id
        ), fired as (
          update balance_notifications n set armed = false, last_fired_at = now()
          from moved where n.key_id = moved.id and n.armed and n.threshold > moved.balance and ${notifies}::boolean
          returning n.threshold, n.email, moved.id as key_id, moved.balance, moved.prefix, moved.last4
        ), rearmed as (
          update balance_notifications n set armed = true
          from moved where n.key_id = moved.id and not n.armed and n.threshold <= moved.balance
          returning n.id
        ), mail as (
          insert into email_outbox ("to", subject, text, kind, meta)
          select f.email, ${subject}, ${body}, 'balance_alert',
            jsonb_build_object('key_id', f.key_id, 'threshold', f.threshold, 'balance', f.balance)
          from fired f
          returning id
        )
        select entry.id as entry_id, moved.balance, (select count(*) from mail) as alerts
        from moved, entry`),
    )
  } catch (error) {
    // Two requests for the same event raced past the NOT EXISTS check; the unique index let one through.
    if (!isUniqueViolation(error)) throw error
    rows = []
  }
  if (rows.length === 1) return { entryId: Number(rows[0].entry_id), balance: Number(rows[0].balance), alerts: Number(rows[0].alerts), duplicate: false }
  return explainRefusal(db, input)
}

/** Why `applyEntry` wrote nothing: the event already landed (idempotent replay), or the key refuses it. */
async function explainRefusal(db: Db | Tx, { keyId, amount, externalRef }: EntryInput): Promise<EntryResult> {
  const [row] = rowsOf<{ ref_key: string | null; ref_entry: string | null; key_id: string | null; revoked: boolean | null; balance: string | null }>(
    await db.execute(sql`
      select e.key_id as ref_key, e.id as ref_entry, k.id as key_id, k.revoked_at is not null as revoked, k.balance
      from (select 1) one
      left join ledger_entries e on e.external_ref = ${externalRef}
      left join api_keys k on k.id = ${keyId}::uuid`),
  )
  if (row?.ref_entry != null) {
    if (row.ref_key !== keyId) throw new EventOfAnotherKey(externalRef)
    return { entryId: Number(row.ref_entry), balance: Number(row.balance ?? 0), alerts: 0, duplicate: true }
  }
  if (!row?.key_id) throw new KeyIdNotFound(keyId)
  if (row.revoked) throw new KeyRevoked(keyId)
  if (amount < 0) throw new InsufficientBalance(keyId)
  throw new Error(`ledger entry for ${externalRef} was not applied`)
}

export function isUniqueViolation(error: unknown): boolean {
  for (let e: unknown = error; e; e = (e as { cause?: unknown }).cause) if ((e as { code?: string }).code === '23505') return true
  return false
}

export { consume } from './metering'

export interface AuditMismatch {
  key_id: string
  balance: number
  entries_sum: number
}

/** Invariant I1: every cached balance equals the sum of its key's entries. Returns the keys where it does not. */
export async function auditLedger(db: Db): Promise<AuditMismatch[]> {
  const rows = rowsOf<{ key_id: string; balance: string; entries_sum: string }>(
    await db.execute(sql`
      select k.id as key_id, k.balance, coalesce(s.total, 0) as entries_sum
      from api_keys k left join (select key_id, sum(amount) as total from ledger_entries group by key_id) s on s.key_id = k.id
      where k.balance <> coalesce(s.total, 0)`),
  )
  return rows.map((r) => ({ key_id: r.key_id, balance: Number(r.balance), entries_sum: Number(r.entries_sum) }))
}
