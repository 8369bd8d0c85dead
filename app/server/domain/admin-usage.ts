import { sql, type SQL } from 'drizzle-orm'
import { rowsOf } from '../db/rows'
import type { Db } from '../db/types'

/** What usage is read over: the buckets [start + i·width, start + (i+1)·width) up to `end`, for these keys. */
export interface UsageWindow {
  keyIds: string[]
  start: number
  end: number
  width: number
  products: string[]
  projectIds?: string[]
  keyFilter?: string[]
  models?: string[]
  /** Split by request tag (`request_log.tag`): each row then has its tag, null for untagged usage. */
  byTag?: boolean
  /** Only requests with one of these tags. */
  tags?: string[]
}

export interface UsageRow {
  bucket: number
  project_id: string | null
  key_id: string
  product: string | null
  model: string | null
  tag: string | null
  tokens: number
  requests: number
  usd: number
}

interface RawRow {
  b: string
  key_id: string
  product: string | null
  model: string | null
  tag: string | null
  tokens: string
  requests: string
}

const list = (column: SQL, values: string[], cast = '') =>
  sql`${column} in (${sql.join(
    values.map((v) => sql`${v}${sql.raw(cast)}`),
    sql`, `,
  )})`

/**
 * Tokens the ledger charged (consumption net of usage given back, as the console's usage reads them) and the
 * requests the request log answered, per bucket, project, key, product and model, with what the tokens cost in
 * dollars at the price each key's tokens were bought at (as spend limits in dollars count them).
 */
export async function usageRows(db: Db, w: UsageWindow, listUsdPerToken: number): Promise<UsageRow[]> {
  if (w.keyIds.length === 0 || w.products.length === 0) return []
  const from = new Date(w.start * 1000).toISOString()
  const to = new Date(w.end * 1000).toISOString()
  const bucket = (column: string) =>
    sql`floor((extract(epoch from ${sql.raw(column)}) - ${w.start}) / ${w.width})::bigint`
  const filters = (t: string) =>
    sql.join(
      [
        list(sql.raw(`${t}.key_id`), w.keyIds, '::uuid'),
        list(sql.raw(`${t}.product`), w.products),
        sql`${sql.raw(`${t}.created_at`)} >= ${from}::timestamptz and ${sql.raw(`${t}.created_at`)} < ${to}::timestamptz`,
        ...(w.keyFilter ? [list(sql.raw(`${t}.key_id::text`), w.keyFilter.length ? w.keyFilter : [''])] : []),
        ...(w.models ? [list(sql.raw(`coalesce(${t}.model, '')`), w.models.length ? w.models : [''])] : []),
      ],
      sql` and `,
    )
  /*
   * The ledger's entries carry no tag, so tagged usage is the tokens the request log holds for tagged requests
   * (as the console's usage by tag reads them), and untagged usage what the ledger charged less those: split
   * by tag, the results still add up to what the ledger charged. A tag filter reads tagged requests alone.
   */
  const tagFilter = w.tags ? sql` and ${list(sql`r.tag`, w.tags.length ? w.tags : [''])}` : sql``
  const tag = w.byTag || w.tags ? sql`r.tag` : sql`null::text`
  const split = w.byTag && !w.tags
  const parts = [
    ...(w.tags
      ? []
      : [
          sql`select ${bucket('e.created_at')} as b, e.key_id, e.product, e.model, null::text as tag,
            -sum(e.amount) as tokens, 0 as requests
          from ledger_entries e
          where ${filters('e')}
            and (e.type = 'consume' or (e.type = 'adjustment' and e.external_ref like 'usage-reversal:%'))
          group by 1, 2, 3, 4`,
        ]),
    sql`select ${bucket('r.created_at')} as b, r.key_id, r.product, r.model, ${tag} as tag,
        ${w.tags ? sql`sum(r.input_tokens + r.output_tokens)` : sql`0`} as tokens, count(*) as requests
      from request_log r
      where ${filters('r')} and r.status < 300${tagFilter}
      group by 1, 2, 3, 4, 5`,
    ...(split
      ? [
          // Tagged tokens moved from the untagged row (the ledger's) to their tag's.
          sql`select ${bucket('r.created_at')} as b, r.key_id, r.product, r.model, t.tag, t.sign * sum(r.input_tokens + r.output_tokens) as tokens, 0 as requests
          from request_log r cross join lateral (values (r.tag, 1), (null::text, -1)) as t(tag, sign)
          where ${filters('r')} and r.status < 300 and r.tag is not null
          group by 1, 2, 3, 4, 5, t.sign`,
        ]
      : []),
  ]
  // Each part on a connection of its own, at once: each is a scan of the month's rows (BENCHMARKS-LOG.md).
  const partRows = await Promise.all(
    parts.map(async (part) =>
      rowsOf<RawRow>(
        await db.execute(sql`
          select b, key_id, product, model, tag, sum(tokens) as tokens, sum(requests) as requests
          from (${part}) u
          group by 1, 2, 3, 4, 5`),
      ),
    ),
  )
  const merged = new Map<
    string,
    {
      b: string
      key_id: string
      product: string | null
      model: string | null
      tag: string | null
      tokens: number
      requests: number
    }
  >()
  for (const row of partRows.flat()) {
    const id = JSON.stringify([String(row.b), row.key_id, row.product, row.model, row.tag])
    const at = merged.get(id)
    if (at) {
      at.tokens += Number(row.tokens)
      at.requests += Number(row.requests)
    } else merged.set(id, { ...row, b: String(row.b), tokens: Number(row.tokens), requests: Number(row.requests) })
  }
  const rows = [...merged.values()]
  const keys = [...new Set(rows.map((r) => r.key_id))]
  const info = keys.length
    ? rowsOf<{ id: string; project_id: string | null; usd: string | null }>(
        await db.execute(sql`
          select id, project_id, spend_limit_usd_per_token(coalesce(balance_key_id, id), ${listUsdPerToken}::numeric) as usd
          from api_keys where ${list(sql`id`, keys, '::uuid')}`),
      )
    : []
  const byKey = new Map(info.map((k) => [k.id, k]))
  return rows
    .map((r) => {
      const key = byKey.get(r.key_id)
      const tokens = Number(r.tokens)
      return {
        bucket: Number(r.b),
        project_id: key?.project_id ?? null,
        key_id: r.key_id,
        product: r.product,
        model: r.model,
        tag: r.tag,
        tokens,
        requests: Number(r.requests),
        usd: tokens * Number(key?.usd ?? listUsdPerToken),
      }
    })
    .filter((r) => !w.projectIds || (r.project_id !== null && w.projectIds.includes(r.project_id)))
}
