import { sql } from 'drizzle-orm'
import type { Transaction, TransactionPage } from '~/contracts/billing'
import { transactionReasonOf } from '~/contracts/ledger'
import { encodeCursor } from '~/lib/cursor'
import { rowsOf } from '../db/rows'
import type { Db } from '../db/types'

const uuid = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}'
/**
 * A streamed request's meter names its usage event `v1:<key>:<request id>:<uuid>` and its later reservations
 * `<event>:2`, `<event>:3`, … (`api/search/meter.ts`); a fixed-price request's event is `v1:<key>:<request id>`.
 * Both give back under `usage-reversal:<event>`.
 */
const meteredEvent = `^v1:.+:${uuid}$`
const eventOfUsage = `^usage:(v1:.+:${uuid})(?::[0-9]+)?$`
const seqOfUsage = `^usage:v1:.+:${uuid}:([0-9]+)$`

type Row = {
  id: string
  type: Transaction['type']
  amount: string
  balance_after: string
  product: string | null
  model: string | null
  created_at: Date | string
  external_ref: string
  event: string | null
}

/**
 * Transactions newest first as the Usage list shows them: the entries of one request (the reservations a
 * streamed answer made as it ran, and what it gave back at its end, or a failed request's debit and its
 * refund) are one row, at the place of its newest entry, with their net tokens. A row stands for a request
 * unless a later entry of the same request exists (its give-back, or its next reservation), which the
 * ledger's unique `external_ref` finds by name; the rows' other entries are then summed by name too.
 */
export async function requestTransactions(
  db: Db,
  keyId: string,
  numRecords: number,
  before?: number,
): Promise<TransactionPage> {
  const rows = rowsOf<Row>(
    await db.execute(sql`
      select e.id, e.type, e.amount, e.balance_after, e.product, e.model, e.created_at, e.external_ref, g.event
      from ledger_entries e,
      lateral (select
        case
          when e.external_ref like 'usage:%' then
            coalesce(substring(e.external_ref from ${eventOfUsage}), substr(e.external_ref, 7))
          when e.external_ref like 'usage-reversal:%' then substr(e.external_ref, 16)
        end as event,
        coalesce(substring(e.external_ref from ${seqOfUsage})::int, 1) as seq) g
      where e.key_id = ${keyId}::uuid ${before === undefined ? sql`` : sql`and e.id < ${before}`}
        and not (e.external_ref like 'usage:%' and (
          exists (select 1 from ledger_entries n
            where n.external_ref = 'usage-reversal:' || g.event and n.key_id = e.key_id)
          or (g.event ~ ${meteredEvent} and exists (select 1 from ledger_entries n
            where n.external_ref = 'usage:' || g.event || ':' || (g.seq + 1) and n.key_id = e.key_id))))
      order by e.id desc
      limit ${numRecords + 1}`),
  )
  const page = rows.slice(0, numRecords)
  const parts = await requestParts(
    db,
    keyId,
    page.filter((row) => row.event !== null).map((row) => row.event!),
  )
  return {
    transactions: page.map((row) => requestRecord(row, row.event === null ? undefined : parts.get(row.event))),
    next_cursor: rows.length > numRecords ? encodeCursor(Number(page[page.length - 1].id)) : null,
  }
}

type Parts = { reserved: number; givenBack: number; entries: number }

/** Per usage event: what its debits reserved, what its give-back returned, and how many entries they are. */
async function requestParts(db: Db, keyId: string, events: string[]): Promise<Map<string, Parts>> {
  if (events.length === 0) return new Map()
  const list = sql.join(
    events.map((event) => sql`(${event})`),
    sql`, `,
  )
  const rows = rowsOf<{ event: string; reserved: string; given_back: string; entries: string }>(
    await db.execute(sql`
      with recursive events(event) as (values ${list}),
      debits(event, seq, amount) as (
        select v.event, 1, e.amount from events v
          join ledger_entries e on e.external_ref = 'usage:' || v.event and e.key_id = ${keyId}::uuid
        union all
        select d.event, d.seq + 1, e.amount from debits d
          join ledger_entries e on e.external_ref = 'usage:' || d.event || ':' || (d.seq + 1) and e.key_id = ${keyId}::uuid
          where d.event ~ ${meteredEvent}
      )
      select v.event,
        coalesce((select -sum(amount) from debits d where d.event = v.event), 0) as reserved,
        coalesce((select amount from ledger_entries r
          where r.external_ref = 'usage-reversal:' || v.event and r.key_id = ${keyId}::uuid), 0) as given_back,
        (select count(*) from debits d where d.event = v.event)
          + (select count(*) from ledger_entries r
          where r.external_ref = 'usage-reversal:' || v.event and r.key_id = ${keyId}::uuid) as entries
      from events v`),
  )
  return new Map(
    rows.map((row) => [
      row.event,
      { reserved: Number(row.reserved), givenBack: Number(row.given_back), entries: Number(row.entries) },
    ]),
  )
}

function requestRecord(row: Row, parts: Parts | undefined): Transaction {
  const single: Transaction = {
    id: String(row.id),
    type: row.type,
    amount: Number(row.amount),
    balance_after: Number(row.balance_after),
    product: row.product,
    model: row.model,
    created_at: new Date(row.created_at).toISOString(),
    reason: transactionReasonOf(row.external_ref, row.product),
  }
  if (!parts || parts.entries < 2) return single
  return {
    ...single,
    // One request's usage: its debits net of what it gave back.
    type: 'consume',
    amount: parts.givenBack - parts.reserved,
    request: { entries: parts.entries, reserved: parts.reserved, given_back: parts.givenBack },
  }
}
