/**
 * The Administration API's usage read over a month of request rows, against real Postgres: ROWS request_log
 * rows and as many ledger entries (one consume each), over 30 days, for 100 keys of one organisation; the
 * domain read behind `GET /v1/organization/usage/embeddings?bucket_width=1d&group_by=api_key_id&group_by=model`
 * (`usageRows` over 30 daily buckets) timed CALLS times after one warm-up call, median and p90, then the same
 * split by request tag. Prints one JSON object (and writes it to BENCH_OUT when set).
 */
import { randomUUID } from 'node:crypto'
import { writeFile } from 'node:fs/promises'
import { sql } from 'drizzle-orm'
import { expect, test } from 'vitest'
import { openDatabase } from '~/server/db/client'
import { migrate } from '~/server/db/migrate'
import type { Db } from '~/server/db/types'
import { usageRows, type UsageWindow } from '~/server/domain/admin-usage'

const ADMIN_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'
const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000)
const KEYS = 100
const CALLS = 10
const DAY = 86_400

async function seed(db: Db, keys: string[], start: number) {
  const keyArray = `{${keys.join(',')}}`
  await db.execute(sql`insert into api_keys (id, key_hash, prefix, last4, balance)
    select id, md5(id::text), 'lds_bench', 'x', 0 from unnest(${keyArray}::uuid[]) as id`)
  // Spread evenly over 30 days; 4 in 5 embeddings (two models), the rest reranker; one in 4 tagged.
  const rows = sql`select i, (${keyArray}::uuid[])[1 + i % ${KEYS}] as key_id,
      to_timestamp(${start} + (i::bigint * ${30 * DAY}) / ${ROWS}) as at,
      case when (i / ${KEYS}) % 5 = 4 then 'reranker' else 'embeddings' end as product,
      case when (i / ${KEYS}) % 5 = 4 then 'reranker-v2' when (i / ${KEYS}) % 2 = 0 then 'embeddings-v3'
        else 'embeddings-v4' end as model,
      case when i % 4 = 0 then 'feature-' || (i % 8) end as tag,
      20 + i % 200 as tokens
    from generate_series(0, ${ROWS - 1}) as i`
  // Chunks small enough for the connection's statement timeout on a loaded machine.
  const chunk = 100_000
  for (let from = 0; from < ROWS; from += chunk) {
    const part = sql`select * from (${rows}) r where i >= ${from} and i < ${from + chunk}`
    await db.execute(sql`insert into request_log (key_id, request_id, product, model, tag, input_tokens, latency_ms, status, created_at)
      select key_id, 'bench-' || i, product, model, tag, tokens, 30, 200, at from (${part}) p`)
    await db.execute(sql`insert into ledger_entries (key_id, type, amount, balance_after, external_ref, product, model, created_at)
      select key_id, 'consume', -tokens, 0, 'bench-usage:' || i, product, model, at from (${part}) p`)
  }
  await db.execute(sql`analyze request_log`)
  await db.execute(sql`analyze ledger_entries`)
}

const rowsOfPlan = (result: unknown) =>
  ((Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as Array<Record<string, string>>).map(
    (row) => Object.values(row)[0],
  )

async function timed(run: () => Promise<unknown>) {
  await run()
  const ms: number[] = []
  for (let i = 0; i < CALLS; i++) {
    const t = performance.now()
    await run()
    ms.push(performance.now() - t)
  }
  ms.sort((a, b) => a - b)
  const at = (q: number) => Number(ms[Math.min(ms.length - 1, Math.floor(q * ms.length))].toFixed(1))
  return { calls: CALLS, median_ms: at(0.5), p90_ms: at(0.9), max_ms: Number(ms.at(-1)!.toFixed(1)) }
}

test('admin usage API latency over a month of request rows', async () => {
  const name = `bench_${Date.now().toString(36)}`
  const admin = await openDatabase({ url: ADMIN_URL, maxConnections: 1 })
  await admin.db.execute(sql.raw(`create database "${name}"`))
  const url = new URL(ADMIN_URL)
  url.pathname = `/${name}`
  const database = await openDatabase({ url: url.toString(), maxConnections: 4 })
  try {
    const db = database.db
    await migrate(db)
    const keys = Array.from({ length: KEYS }, () => randomUUID())
    const end = Math.floor(Date.now() / 1000 / DAY) * DAY
    const start = end - 30 * DAY
    const seeding = performance.now()
    await seed(db, keys, start)
    const seedSeconds = (performance.now() - seeding) / 1000
    const window: UsageWindow = { keyIds: keys, start, end, width: DAY, products: ['embeddings'] }
    const rows = await usageRows(db, window, 0.00000005)
    // 30 days × 100 keys × 2 embedding models, each with all its tokens.
    expect(rows).toHaveLength(30 * KEYS * 2)
    const plain = await timed(() => usageRows(db, window, 0.00000005))
    const byTag = await timed(() => usageRows(db, { ...window, byTag: true }, 0.00000005))
    // Where the time goes, and whether covering indexes (not in the schema) would help: the same reads after.
    const ids = `{${keys.join(',')}}`
    const explain = async (query: ReturnType<typeof sql>) =>
      rowsOfPlan(await db.execute(sql`explain (analyze, format text) ${query}`))
        .filter((line) => /Execution Time|Scan on|HashAggregate|actual time=.*loops=1\)$/.test(line))
        .map((line) => line.replace(/\{[^}]{200,}\}/, '{…}'))
    const plan = {
      ledger: await explain(sql`select floor((extract(epoch from created_at) - ${start}) / ${DAY})::bigint as b,
          key_id, product, model, -sum(amount) from ledger_entries where key_id = any(${ids}::uuid[])
          and product = 'embeddings' and created_at >= to_timestamp(${start}) and created_at < to_timestamp(${end})
          and (type = 'consume' or (type = 'adjustment' and external_ref like 'usage-reversal:%')) group by 1, 2, 3, 4`),
      request_log: await explain(sql`select floor((extract(epoch from created_at) - ${start}) / ${DAY})::bigint as b,
          key_id, product, model, count(*) from request_log where key_id = any(${ids}::uuid[])
          and product = 'embeddings' and created_at >= to_timestamp(${start}) and created_at < to_timestamp(${end})
          and status < 300 group by 1, 2, 3, 4`),
    }
    const inJs = performance.now()
    await usageRows(db, window, 0.00000005)
    const wholeMs = performance.now() - inJs
    await db.execute(sql`create index bench_ledger_usage on ledger_entries (key_id, product, created_at)
      include (type, model, amount, external_ref)`)
    await db.execute(sql`create index bench_request_usage on request_log (key_id, product, created_at)
      include (model, status, tag, input_tokens, output_tokens)`)
    await db.execute(sql`vacuum analyze ledger_entries`)
    await db.execute(sql`vacuum analyze request_log`)
    const indexed = await timed(() => usageRows(db, window, 0.00000005))
    const result = {
      bench: 'admin-usage',
      request_rows: ROWS,
      ledger_entries: ROWS,
      keys: KEYS,
      days: 30,
      seed_seconds: Number(seedSeconds.toFixed(1)),
      query: 'usage/embeddings bucket_width=1d group_by=api_key_id,model',
      result_rows: rows.length,
      grouped_by_key_and_model: plain,
      grouped_by_tag_too: byTag,
      with_covering_indexes: indexed,
      one_call_ms: Number(wholeMs.toFixed(1)),
      plans: plan,
    }
    console.log(JSON.stringify(result, null, 2))
    if (process.env.BENCH_OUT) await writeFile(process.env.BENCH_OUT, JSON.stringify(result, null, 2))
  } finally {
    await database.close()
    await admin.db.execute(sql.raw(`drop database if exists "${name}" with (force)`))
    await admin.close()
  }
})
