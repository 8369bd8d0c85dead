import { sql, type SQL } from 'drizzle-orm'
import type { UsageSummary } from '~/contracts/usage-summary'
import { rowsOf } from '../db/rows'
import { keysBehind } from './purchases'
import type { Db } from '../db/types'

type Counts = { requests: number; refused: number; failed: number; tokens: number; cost: number | null }
type Price = NonNullable<UsageSummary['price']>
type ProjectCounts = Counts & { project_id: string | null; name: string | null }

const inKeys = (column: SQL, keyIds: string[]) =>
  sql`${column} in (${sql.join(
    keyIds.map((id) => sql`${id}::uuid`),
    sql`, `,
  )})`

/**
 * Requests (from the request log) and tokens (from the ledger: usage net of what was given back) of `keyIds`
 * in [start, end), per UTC day, product and model, and key; priced at what these keys' paid purchases cost.
 */
export async function usageSummary(
  db: Db,
  keyIds: string[],
  balanceKeyId: string,
  start: Date,
  end: Date,
): Promise<Omit<UsageSummary, 'start' | 'end' | 'keys' | 'by_key'> & { by_key: Array<{ key_id: string } & Counts> }> {
  const range = (column: string) =>
    sql`${sql.raw(column)} >= ${start.toISOString()}::timestamptz and ${sql.raw(column)} < ${end.toISOString()}::timestamptz`
  const tokens = rowsOf<{ key_id: string; day: string; product: string | null; model: string | null; n: string }>(
    await db.execute(sql`
      select key_id, to_char(created_at at time zone 'UTC', 'YYYY-MM-DD') as day, product, model, -sum(amount) as n
      from ledger_entries
      where ${inKeys(sql`key_id`, keyIds)} and ${range('created_at')}
        and (type = 'consume' or (type = 'adjustment' and external_ref like 'usage-reversal:%'))
      group by 1, 2, 3, 4`),
  )
  const requests = rowsOf<{
    key_id: string
    day: string
    product: string
    model: string | null
    answered: string
    refused: string
    failed: string
  }>(
    await db.execute(sql`
      select key_id, to_char(created_at at time zone 'UTC', 'YYYY-MM-DD') as day, product, model,
        count(*) filter (where status < 300) as answered,
        count(*) filter (where status >= 300 and status < 500) as refused,
        count(*) filter (where status >= 500) as failed
      from request_log
      where ${inKeys(sql`key_id`, keyIds)} and ${range('created_at')}
      group by 1, 2, 3, 4`),
  )
  const tagged = rowsOf<{ tag: string; answered: string; refused: string; failed: string; tokens: string }>(
    await db.execute(sql`
      select tag, count(*) filter (where status < 300) as answered,
        count(*) filter (where status >= 300 and status < 500) as refused, count(*) filter (where status >= 500) as failed,
        sum(input_tokens + output_tokens) as tokens
      from request_log
      where ${inKeys(sql`key_id`, keyIds)} and tag is not null and ${range('created_at')}
      group by 1`),
  )
  const price = await pricePaid(db, keyIds)
  const costOf = (n: number) => (price ? Math.round(((n * price.per_million_tokens) / 1e6) * 100) / 100 : null)

  const buckets = {
    day: new Map<string, Counts & { date: string }>(),
    model: new Map<string, Counts & { product: string; model: string | null }>(),
    key: new Map<string, Counts & { key_id: string }>(),
  }
  const totals: Counts = { requests: 0, refused: 0, failed: 0, tokens: 0, cost: null }
  const bump = <T extends Counts>(map: Map<string, T>, id: string, make: () => T, add: Partial<Counts>) => {
    let bucket = map.get(id)
    if (!bucket) map.set(id, (bucket = make()))
    bucket.requests += add.requests ?? 0
    bucket.refused += add.refused ?? 0
    bucket.failed += add.failed ?? 0
    bucket.tokens += add.tokens ?? 0
  }
  const zero = { requests: 0, refused: 0, failed: 0, tokens: 0, cost: null }
  const add = (
    row: { key_id: string; day: string; product: string | null; model: string | null },
    c: Partial<Counts>,
  ) => {
    const product = row.product ?? 'other'
    bump(buckets.day, row.day, () => ({ date: row.day, ...zero }), c)
    bump(buckets.model, `${product}\u0000${row.model ?? ''}`, () => ({ product, model: row.model, ...zero }), c)
    bump(buckets.key, row.key_id, () => ({ key_id: row.key_id, ...zero }), c)
    totals.requests += c.requests ?? 0
    totals.refused += c.refused ?? 0
    totals.failed += c.failed ?? 0
    totals.tokens += c.tokens ?? 0
  }
  for (const row of tokens) add(row, { tokens: Number(row.n) })
  for (const row of requests)
    add(row, { requests: Number(row.answered), refused: Number(row.refused), failed: Number(row.failed) })
  const priced = <T extends Counts>(rows: T[]) => rows.map((row) => ({ ...row, cost: costOf(row.tokens) }))
  const byTokens = (a: Counts, b: Counts) => b.tokens - a.tokens || b.requests - a.requests

  return {
    price,
    totals: { ...totals, cost: costOf(totals.tokens) },
    by_day: priced([...buckets.day.values()].sort((a, b) => a.date.localeCompare(b.date))),
    by_model: priced([...buckets.model.values()].sort(byTokens)),
    by_key: priced([...buckets.key.values()].sort(byTokens)),
    by_tag: priced(
      tagged
        .map((row) => ({
          tag: row.tag,
          requests: Number(row.answered),
          refused: Number(row.refused),
          failed: Number(row.failed),
          tokens: Number(row.tokens),
          cost: null,
        }))
        .sort(byTokens),
    ),
    by_project: priced(await perProject(db, [...buckets.key.values()])),
    balance: await balanceScale(db, balanceKeyId, start),
  }
}

/** The keys' counts added up by the project each key is in now (null: in none), with the project's name. */
async function perProject(db: Db, perKey: Array<Counts & { key_id: string }>): Promise<ProjectCounts[]> {
  if (perKey.length === 0) return []
  const projectOf = new Map(
    rowsOf<{ id: string; project_id: string | null; name: string | null }>(
      await db.execute(sql`select k.id, k.project_id, p.name from api_keys k left join projects p on p.id = k.project_id
        where ${inKeys(
          sql`k.id`,
          perKey.map((row) => row.key_id),
        )}`),
    ).map((row) => [row.id, row]),
  )
  const projects = new Map<string, ProjectCounts>()
  for (const row of perKey) {
    const project = projectOf.get(row.key_id)
    const id = project?.project_id ?? ''
    const bucket = projects.get(id) ?? {
      project_id: project?.project_id ?? null,
      name: project?.name ?? null,
      requests: 0,
      refused: 0,
      failed: 0,
      tokens: 0,
      cost: null,
    }
    bucket.requests += row.requests
    bucket.refused += row.refused
    bucket.failed += row.failed
    bucket.tokens += row.tokens
    projects.set(id, bucket)
  }
  return [...projects.values()].sort((a, b) => b.tokens - a.tokens || b.requests - a.requests)
}

/**
 * What a million tokens cost these keys: the paid purchases behind their balance (their own, those of keys whose
 * balance was transferred into them: a transfer moves tokens bought at the sender's price, and the shared balance
 * of an organisation they draw on) in the latest one's currency, refunds left out.
 */
async function pricePaid(db: Db, keyIds: string[]): Promise<Price | null> {
  const behind = keysBehind(keyIds)
  const [row] = rowsOf<{ currency: string; amount: string; tokens: string; purchases: string; transferred: string }>(
    await db.execute(sql`
      with paying as (
        select b.id from ${behind} as b(id)
        union select balance_key_id from api_keys where ${inKeys(sql`id`, keyIds)} and balance_key_id is not null
      ), latest as (
        select currency from purchases where key_id in (select id from paying) and status = 'paid'
        order by paid_at desc nulls last limit 1
      )
      select p.currency, sum(p.amount) as amount, sum(p.tokens) as tokens, count(*) as purchases,
        count(*) filter (where not ${inKeys(sql`p.key_id`, keyIds)}) as transferred
      from purchases p join latest l on l.currency = p.currency
      where p.key_id in (select id from paying) and p.status = 'paid'
      group by p.currency`),
  )
  if (!row || Number(row.tokens) <= 0) return null
  // Amounts are in minor units (cents); the price is in major units per million tokens.
  return {
    currency: row.currency.toUpperCase(),
    per_million_tokens: Number(row.amount) / 100 / (Number(row.tokens) / 1e6),
    purchases: Number(row.purchases),
    transferred: Number(row.transferred),
  }
}

/**
 * The balance the key spends (its own, or its organisation's shared one) against the largest it held since
 * `since` (its balance then included), or its last purchase.
 */
async function balanceScale(db: Db, keyId: string, since: Date): Promise<UsageSummary['balance']> {
  const [row] = rowsOf<{ current: string; largest: string | null; before: string | null; purchase: string | null }>(
    await db.execute(sql`
      select k.balance as current,
        (select max(balance_after) from ledger_entries
          where (key_id = k.id or balance_key_id = k.id) and created_at >= ${since.toISOString()}::timestamptz) as largest,
        (select balance_after from ledger_entries
          where (key_id = k.id or balance_key_id = k.id) and created_at < ${since.toISOString()}::timestamptz
          order by id desc limit 1) as before,
        (select tokens from purchases where key_id = k.id and status = 'paid' order by paid_at desc nulls last limit 1) as purchase
      from api_keys k
      where k.id = coalesce((select balance_key_id from api_keys where id = ${keyId}::uuid), ${keyId}::uuid)`),
  )
  const current = Number(row?.current ?? 0)
  const largest = Math.max(current, Number(row?.largest ?? 0), Number(row?.before ?? 0))
  const purchase = Number(row?.purchase ?? 0)
  return purchase > largest
    ? { current, scale: purchase, basis: 'last_purchase' }
    : { current, scale: Math.max(largest, 1), basis: 'largest_balance' }
}
