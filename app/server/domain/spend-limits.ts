import { sql } from 'drizzle-orm'
import { MAX_SPEND_LIMITS, type SpendLimit, type SpendLimitInput } from '~/contracts/spend-limits'
import { rowsOf } from '../db/rows'
import type { Db, Tx } from '../db/types'
import { recordAudit, type AuditBy } from './audit'
import { refusingLimit } from './ledger'
import { ownerEmailOf } from './owner-email'
import { listUsdPerToken } from './packs'
import { keyAccess } from './key-access'
import { InvalidInput, KeyIdNotFound, SpendLimitNotFound, TransferPastSpendLimit } from './refusals'

/**
 * Spend limits of a key (schema/spend-limits.ts): set and removed by the key's owner, read with what each has
 * counted in its current period. Enforcing them is the ledger's (ledger_apply_v3 and
 * app/server/db/functions/spend-limits.sql); this module only keeps the rows and reads them the same way.
 */

export type LimitSubject = { kind: 'key' | 'project'; id: string }

interface LimitRow {
  id: string
  subject_kind: 'key' | 'project'
  subject_id: string
  unit: SpendLimit['unit']
  amount: string
  period: SpendLimit['period']
  alert_percent: number | null
  alert_email: string | null
  used_now: string
  allowed: string
  period_start: string
  resets_at: string | Date
  created_at: string | Date
  price: string | null
}

const iso = (t: string | Date) => new Date(t).toISOString()
const micro = (n: number) => Math.round(n * 1e6) / 1e6

/** A key's own limits, oldest first, each with what it counted in its current period (UTC). */
export function keySpendLimits(db: Db | Tx, keyId: string): Promise<SpendLimit[]> {
  return subjectSpendLimits(db, { kind: 'key', id: keyId }, keyId)
}

/**
 * A subject's limits, oldest first, with what each counted in its current period (UTC); a dollar limit is read
 * at what a token cost the purchases of `pricedBy` (the key, or a project's shared balance row), else the list price.
 */
export async function subjectSpendLimits(
  db: Db | Tx,
  subject: LimitSubject,
  pricedBy: string | null,
): Promise<SpendLimit[]> {
  const rows = rowsOf<LimitRow>(
    await db.execute(sql`
      with price as (select spend_limit_usd_per_token(${pricedBy}::uuid, ${listUsdPerToken()}::numeric) as usd)
      select l.id, l.subject_kind, l.subject_id, l.unit, l.amount, l.period, l.alert_percent, l.alert_email, l.created_at,
        case when l.period_of = spend_limit_period_start(l.period, now()) then l.used else 0 end as used_now,
        spend_limit_tokens(l.unit, l.amount, p.usd) as allowed,
        to_char(spend_limit_period_start(l.period, now()), 'YYYY-MM-DD') as period_start,
        spend_limit_resets_at(l.period, now()) as resets_at, p.usd as price
      from spend_limits l, price p
      where l.subject_kind = ${subject.kind} and l.subject_id = ${subject.id}::uuid
      order by l.created_at, l.id`),
  )
  return rows.map(answerOf)
}

function answerOf(row: LimitRow): SpendLimit {
  const usedTokens = Number(row.used_now)
  const allowed = Number(row.allowed)
  const amount = Number(row.amount)
  const price = row.price === null ? null : Number(row.price)
  const used = row.unit === 'tokens' ? usedTokens : micro(usedTokens * (price ?? 0))
  return {
    id: row.id,
    subject_kind: row.subject_kind,
    subject_id: row.subject_id,
    unit: row.unit,
    amount,
    period: row.period,
    alert_percent: row.alert_percent,
    alert_email: row.alert_email,
    used,
    left: Math.max(0, row.unit === 'tokens' ? allowed - usedTokens : micro(amount - used)),
    used_tokens: usedTokens,
    allowed_tokens: allowed,
    usd_per_token: price,
    period_start: row.period_start,
    resets_at: iso(row.resets_at),
    created_at: iso(row.created_at),
  }
}

/**
 * Locks a live key the account may manage (its own, or its organisation's by its role there; another's, or a
 * revoked one, reads as not found): the ledger
 * judges and counts limits under this lock too, so a limit set now starts from what the key already spent in
 * its period, with no debit in between.
 */
async function lockOwnedKey(tx: Tx, uid: string, keyId: string): Promise<void> {
  await keyAccess(tx, uid, keyId, 'keys.manage')
  const [key] = rowsOf<{ id: string }>(
    await tx.execute(sql`select id from api_keys where id = ${keyId}::uuid and revoked_at is null for update`),
  )
  if (!key) throw new KeyIdNotFound()
}

/**
 * Adds a limit to one of the account's keys, counting from the start what the key consumed in the current
 * period (net of what was given back), so a limit set at noon holds the morning's spend. Audited.
 */
export async function addKeySpendLimit(
  db: Db,
  by: AuditBy,
  uid: string,
  keyId: string,
  input: SpendLimitInput,
): Promise<SpendLimit> {
  return db.transaction(async (tx) => {
    await lockOwnedKey(tx, uid, keyId)
    const [{ n }] = rowsOf<{ n: string }>(
      await tx.execute(
        sql`select count(*) as n from spend_limits where subject_kind = 'key' and subject_id = ${keyId}::uuid`,
      ),
    )
    if (Number(n) >= MAX_SPEND_LIMITS)
      throw new InvalidInput([
        { loc: ['body'], msg: `a key may have at most ${MAX_SPEND_LIMITS} spend limits`, type: 'too_many' },
      ])
    const email =
      input.alert_percent === null ? null : (input.alert_email ?? (await ownerEmailOf(tx, keyId)) ?? undefined)
    if (email === undefined)
      throw new InvalidInput([
        { loc: ['body', 'alert_email'], msg: 'is needed: the key and its account have no address', type: 'missing' },
      ])
    const [row] = rowsOf<{ id: string }>(
      await tx.execute(sql`
        insert into spend_limits (subject_kind, subject_id, unit, amount, period, used, period_of, alert_percent, alert_email)
        select 'key', ${keyId}::uuid, ${input.unit}, ${String(input.amount)}::numeric, ${input.period},
          greatest(0, coalesce((select -sum(e.amount) from ledger_entries e
            where e.key_id = ${keyId}::uuid
              and e.created_at >= spend_limit_period_start(${input.period}, now()) at time zone 'UTC'
              and (e.type = 'consume' or (e.type = 'adjustment' and e.external_ref like 'usage-reversal:%'))), 0)),
          spend_limit_period_start(${input.period}, now()), ${input.alert_percent}, ${email}
        returning id`),
    )
    await recordAudit(tx, by, {
      action: 'key.limit_added',
      keyId,
      accountId: uid,
      details: {
        limit_id: row.id,
        unit: input.unit,
        amount: input.amount,
        period: input.period,
        alert_percent: input.alert_percent,
      },
    })
    return (await keySpendLimits(tx, keyId)).find((limit) => limit.id === row.id)!
  })
}

/** Removes one limit of one of the account's keys (another key's, or an unknown one, reads as not found). Audited. */
export async function removeKeySpendLimit(
  db: Db,
  by: AuditBy,
  uid: string,
  keyId: string,
  limitId: string,
): Promise<void> {
  await db.transaction(async (tx) => {
    await lockOwnedKey(tx, uid, keyId)
    const removed = rowsOf<{ unit: string; amount: string; period: string }>(
      await tx.execute(sql`delete from spend_limits
        where id = ${limitId}::uuid and subject_kind = 'key' and subject_id = ${keyId}::uuid
        returning unit, amount, period`),
    )
    if (removed.length === 0) throw new SpendLimitNotFound()
    const [gone] = removed
    await recordAudit(tx, by, {
      action: 'key.limit_removed',
      keyId,
      accountId: uid,
      details: { limit_id: limitId, unit: gone.unit, amount: Number(gone.amount), period: gone.period },
    })
  })
}

/**
 * Refuses a transfer of the key's whole balance that one of its limits has no room for, judged under the
 * transfer's lock on the key row as a consumption of that much (README "Moving tokens is spending them").
 */
export async function refuseTransferPastLimits(tx: Tx, keyId: string, amount: number): Promise<void> {
  const [row] = rowsOf<{ refusal: Parameters<typeof refusingLimit>[0] | null }>(
    await tx.execute(
      sql`select (spend_limits_judge(${keyId}::uuid, ${amount}::bigint,
        spend_limits_price(${keyId}::uuid, ${JSON.stringify({ list_usd_per_token: listUsdPerToken() })}::jsonb))).refused as refusal`,
    ),
  )
  if (row?.refusal) throw new TransferPastSpendLimit(refusingLimit(row.refusal), amount)
}
