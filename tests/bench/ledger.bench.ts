/**
 * Metering throughput against real Postgres: debits/s spread over 1,000 keys and on one hot key, each
 * followed by the ledger audit (cached balance = sum of entries), and a bare single-row UPDATE loop on
 * the same database (committing the same way) as the ceiling. Prints one JSON object (and writes it to BENCH_OUT when set).
 */
import { randomUUID } from 'node:crypto'
import { writeFile } from 'node:fs/promises'
import { sql } from 'drizzle-orm'
import { expect, test } from 'vitest'
import { openDatabase } from '~/server/db/client'
import { migrate } from '~/server/db/migrate'
import type { Db } from '~/server/db/types'
import { auditLedger, consume } from '~/server/domain/ledger'

const ADMIN_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32)
const KEYS = 1000
const SPREAD_DEBITS = Number(process.env.BENCH_SPREAD_DEBITS ?? 20_000)
const HOT_DEBITS = Number(process.env.BENCH_HOT_DEBITS ?? 5_000)

/** Runs `total` operations with `concurrency` in flight; returns operations per second. */
async function throughput(total: number, concurrency: number, op: (i: number) => Promise<unknown>): Promise<{ ops: number; seconds: number; per_second: number }> {
  let next = 0
  const started = performance.now()
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) await op(next++)
    }),
  )
  const seconds = (performance.now() - started) / 1000
  return { ops: total, seconds: Number(seconds.toFixed(3)), per_second: Math.round(total / seconds) }
}

async function seedKeys(db: Db, count: number, balance: number): Promise<string[]> {
  const ids = Array.from({ length: count }, () => randomUUID())
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500)
    await db.transaction(async (tx) => {
      await tx.execute(sql`insert into api_keys (id, key_hash, prefix, last4, balance)
        select id, md5(id::text), 'lds_bench', 'x', ${balance}::bigint from unnest(${`{${chunk.join(',')}}`}::uuid[]) as id`)
      await tx.execute(sql`insert into ledger_entries (key_id, type, amount, balance_after, external_ref)
        select id, 'purchase', ${balance}::bigint, ${balance}::bigint, 'bench-seed:' || id from unnest(${`{${chunk.join(',')}}`}::uuid[]) as id`)
    })
  }
  return ids
}

test('ledger metering throughput', async () => {
  const name = `bench_${Date.now().toString(36)}`
  const admin = await openDatabase({ url: ADMIN_URL, maxConnections: 1 })
  await admin.db.execute(sql.raw(`create database "${name}"`))
  const url = new URL(ADMIN_URL)
  url.pathname = `/${name}`
  const database = await openDatabase({ url: url.toString(), maxConnections: CONCURRENCY })
  try {
    const db = database.db
    await migrate(db)
    const keys = await seedKeys(db, KEYS, 1_000_000_000)
    const [hot] = await seedKeys(db, 1, 1_000_000_000)
    await db.execute(sql`create table bench_counter (id int primary key, n bigint not null)`)
    await db.execute(sql`insert into bench_counter select g, 1000000000 from generate_series(1, ${KEYS}) g`)
    // Warm the pool and the plan cache.
    await throughput(500, CONCURRENCY, () => consume(db, { keyId: keys[0], tokens: 1, usageEventId: randomUUID(), product: 'bench' }))

    const spread = await throughput(SPREAD_DEBITS, CONCURRENCY, (i) => consume(db, { keyId: keys[i % KEYS], tokens: 3, usageEventId: randomUUID(), product: 'embeddings' }))
    const spreadAudit = await auditLedger(db)
    const hotRun = await throughput(HOT_DEBITS, CONCURRENCY, () => consume(db, { keyId: hot, tokens: 3, usageEventId: randomUUID(), product: 'embeddings' }))
    const hotAudit = await auditLedger(db)
    const bareSpread = await throughput(SPREAD_DEBITS, CONCURRENCY, (i) => db.execute(sql`update bench_counter set n = n - 3 where id = ${1 + (i % KEYS)}`))
    const bareHot = await throughput(HOT_DEBITS, CONCURRENCY, () => db.execute(sql`update bench_counter set n = n - 3 where id = 1`))
    // The same bare UPDATE committing like metering does (no wait for the WAL flush), for a like-for-like ceiling.
    const bareAsync = (id: (i: number) => number) => (i: number) =>
      db.execute(sql`with u as (update bench_counter set n = n - 3 where id = ${id(i)} returning n) select n, set_config('synchronous_commit', 'off', true) from u`)
    const bareSpreadAsync = await throughput(SPREAD_DEBITS, CONCURRENCY, bareAsync((i) => 1 + (i % KEYS)))
    const bareHotAsync = await throughput(HOT_DEBITS, CONCURRENCY, bareAsync(() => 1))
    const commit = process.env.METERING_COMMIT ?? 'async'
    const bareFor = (sync: { per_second: number }, async: { per_second: number }) => (commit === 'async' ? async : sync).per_second

    const result = {
      benchmark: 'ledger-metering',
      postgres: (await db.execute(sql`show server_version`).then((r) => (r as unknown as Array<{ server_version: string }>)[0]?.server_version)) ?? null,
      concurrency: CONCURRENCY,
      metering_commit: commit,
      spread: {
        keys: KEYS,
        ...spread,
        audit_mismatches: spreadAudit.length,
        bare_update_per_second: bareSpread.per_second,
        bare_update_async_commit_per_second: bareSpreadAsync.per_second,
        ratio_to_bare: Number((spread.per_second / bareFor(bareSpread, bareSpreadAsync)).toFixed(2)),
      },
      hot: {
        keys: 1,
        ...hotRun,
        audit_mismatches: hotAudit.length,
        bare_update_per_second: bareHot.per_second,
        bare_update_async_commit_per_second: bareHotAsync.per_second,
        ratio_to_bare: Number((hotRun.per_second / bareFor(bareHot, bareHotAsync)).toFixed(2)),
      },
      targets: { spread_per_second: 2000, hot_per_second: 500 },
    }
    console.log(JSON.stringify(result, null, 2))
    if (process.env.BENCH_OUT) await writeFile(process.env.BENCH_OUT, JSON.stringify(result, null, 2))
    expect(spreadAudit).toEqual([])
    expect(hotAudit).toEqual([])
  } finally {
    await database.close()
    await admin.db.execute(sql.raw(`drop database if exists "${name}" with (force)`))
    await admin.close()
  }
})
