/**
 * Metering throughput against real Postgres, durable (synchronous commit on): debits/s spread over
 * 1,000 keys and on one hot key through `consume` (group-committed batches), each followed by the
 * ledger audit (cached balance = sum of entries). The limit it is compared with is a bare single-row
 * UPDATE loop on the same database with the same concurrency, also committing synchronously.
 * Prints one JSON object (and writes it to BENCH_OUT when set).
 */
import { randomUUID } from 'node:crypto'
import { writeFile } from 'node:fs/promises'
import { sql } from 'drizzle-orm'
import { expect, test } from 'vitest'
import { openDatabase } from '~/server/db/client'
import { migrate } from '~/server/db/migrate'
import { rowsOf } from '~/server/db/rows'
import type { Db } from '~/server/db/types'
import { auditLedger } from '~/server/domain/ledger'
import { consume, meteringBatcher } from '~/server/domain/metering'

const ADMIN_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32)
const KEYS = 1000
const SPREAD_DEBITS = Number(process.env.BENCH_SPREAD_DEBITS ?? 20_000)
const HOT_DEBITS = Number(process.env.BENCH_HOT_DEBITS ?? 5_000)

interface Run {
  ops: number
  seconds: number
  per_second: number
  p50_ms: number
  p99_ms: number
}

/** Runs `total` operations with `concurrency` in flight; returns operations per second and latency percentiles. */
async function throughput(total: number, concurrency: number, op: (i: number) => Promise<unknown>): Promise<Run> {
  let next = 0
  const latencies: number[] = []
  const started = performance.now()
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        const t = performance.now()
        await op(next++)
        latencies.push(performance.now() - t)
      }
    }),
  )
  const seconds = (performance.now() - started) / 1000
  latencies.sort((a, b) => a - b)
  const at = (q: number) =>
    Number(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))].toFixed(2))
  return {
    ops: total,
    seconds: Number(seconds.toFixed(3)),
    per_second: Math.round(total / seconds),
    p50_ms: at(0.5),
    p99_ms: at(0.99),
  }
}

async function seedKeys(db: Db, count: number, balance: number): Promise<string[]> {
  const ids = Array.from({ length: count }, () => randomUUID())
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = `{${ids.slice(i, i + 500).join(',')}}`
    await db.transaction(async (tx) => {
      await tx.execute(sql`insert into api_keys (id, key_hash, prefix, last4, balance)
        select id, md5(id::text), 'lds_bench', 'x', ${balance}::bigint from unnest(${chunk}::uuid[]) as id`)
      await tx.execute(sql`insert into ledger_entries (key_id, type, amount, balance_after, external_ref)
        select id, 'purchase', ${balance}::bigint, ${balance}::bigint, 'bench-seed:' || id from unnest(${chunk}::uuid[]) as id`)
    })
  }
  return ids
}

/**
 * An organisation whose `count` keys all draw on one shared balance row holding `balance` (ledger_apply_v3's
 * balance row), and, when `projectLimit` is set, all in one project with a daily token limit of that many.
 */
async function seedOrganisation(db: Db, count: number, balance: number, projectLimit?: number) {
  const [balanceRow] = await seedKeys(db, 1, balance)
  const organisation = randomUUID()
  const uid = `bench-${organisation}`
  await db.execute(sql`insert into users (uid, email) values (${uid}, ${`${uid}@example.com`})`)
  await db.execute(sql`insert into organisations (id, name, created_by, balance_key_id)
    values (${organisation}::uuid, 'Bench', ${uid}, ${balanceRow}::uuid)`)
  const project = randomUUID()
  await db.execute(
    sql`insert into projects (id, organisation_id, name) values (${project}::uuid, ${organisation}::uuid, 'P')`,
  )
  const ids = Array.from({ length: count }, () => randomUUID())
  await db.execute(sql`insert into api_keys (id, key_hash, prefix, last4, balance, organisation_id, balance_key_id, project_id)
    select id, md5(id::text), 'lds_bench', 'x', 0, ${organisation}::uuid, ${balanceRow}::uuid,
      ${projectLimit ? project : null}::uuid
    from unnest(${`{${ids.join(',')}}`}::uuid[]) as id`)
  if (projectLimit)
    await db.execute(sql`insert into spend_limits (subject_kind, subject_id, unit, amount, period)
      values ('project', ${project}::uuid, 'tokens', ${projectLimit}::numeric, 'day')`)
  return { keys: ids, balanceRow }
}

/** Batches and mean batch size of the metering group committer during `run`. */
async function batched<T>(db: Db, run: () => Promise<T>): Promise<T & { batches: number; mean_batch: number }> {
  const { stats } = meteringBatcher(db)
  const before = { ...stats }
  const result = await run()
  const batches = stats.batches - before.batches
  return { ...result, batches, mean_batch: Number(((stats.items - before.items) / Math.max(1, batches)).toFixed(1)) }
}

test('ledger metering throughput (durable)', async () => {
  const name = `bench_${Date.now().toString(36)}`
  const admin = await openDatabase({ url: ADMIN_URL, maxConnections: 1 })
  await admin.db.execute(sql.raw(`create database "${name}"`))
  const url = new URL(ADMIN_URL)
  url.pathname = `/${name}`
  const database = await openDatabase({ url: url.toString(), maxConnections: Math.min(CONCURRENCY, 64) })
  try {
    const db = database.db
    await migrate(db)
    const [settings] = rowsOf<{ version: string; synchronous_commit: string; fsync: string }>(
      await db.execute(
        sql`select current_setting('server_version') as version, current_setting('synchronous_commit') as synchronous_commit, current_setting('fsync') as fsync`,
      ),
    )
    expect(settings.synchronous_commit).toBe('on')
    const keys = await seedKeys(db, KEYS, 1_000_000_000)
    const [hot] = await seedKeys(db, 1, 1_000_000_000)
    await db.execute(sql`create table bench_counter (id int primary key, n bigint not null)`)
    await db.execute(sql`insert into bench_counter select g, 1000000000 from generate_series(1, ${KEYS}) g`)
    // Warm the pool and the plan cache.
    await throughput(500, CONCURRENCY, () =>
      consume(db, { keyId: keys[0], tokens: 1, usageEventId: randomUUID(), product: 'bench' }),
    )

    const spread = await batched(db, () =>
      throughput(SPREAD_DEBITS, CONCURRENCY, (i) =>
        consume(db, { keyId: keys[i % KEYS], tokens: 3, usageEventId: randomUUID(), product: 'embeddings' }),
      ),
    )
    const spreadAudit = await auditLedger(db)
    const hotRun = await batched(db, () =>
      throughput(HOT_DEBITS, CONCURRENCY, () =>
        consume(db, { keyId: hot, tokens: 3, usageEventId: randomUUID(), product: 'embeddings' }),
      ),
    )
    const hotAudit = await auditLedger(db)
    // The same spread over keys with auto-recharge on (a threshold far below the balance): what the
    // crossing check in ledger_apply adds to every debit.
    const recharging = await seedKeys(db, KEYS, 1_000_000_000)
    await db.execute(sql`update api_keys set auto_recharge = true, auto_recharge_threshold = 1000
      where id = any(${`{${recharging.join(',')}}`}::uuid[])`)
    const rechargeSpread = await batched(db, () =>
      throughput(SPREAD_DEBITS, CONCURRENCY, (i) =>
        consume(db, { keyId: recharging[i % KEYS], tokens: 3, usageEventId: randomUUID(), product: 'embeddings' }),
      ),
    )
    const rechargeAudit = await auditLedger(db)
    // The same spread over keys with two spend limits each, far above what the run spends (a token limit per
    // day and a dollar limit per month, priced at the list price): what judging and counting limits adds.
    const limited = await seedKeys(db, KEYS, 1_000_000_000)
    await db.execute(sql`insert into spend_limits (subject_kind, subject_id, unit, amount, period)
      select 'key', id, u.unit, u.amount, u.period from unnest(${`{${limited.join(',')}}`}::uuid[]) as id,
        (values ('tokens', 1000000000::numeric, 'day'), ('usd', 1000::numeric, 'month')) as u (unit, amount, period)`)
    const limitedSpread = await batched(db, () =>
      throughput(SPREAD_DEBITS, CONCURRENCY, (i) =>
        consume(db, { keyId: limited[i % KEYS], tokens: 3, usageEventId: randomUUID(), product: 'embeddings' }),
      ),
    )
    const limitedAudit = await auditLedger(db)
    const limitsCounted = Number(
      rowsOf<{ n: string }>(
        await db.execute(sql`select coalesce(sum(used), 0) as n from spend_limits where unit = 'tokens'`),
      )[0].n,
    )
    // 1,000 keys of one organisation on its shared balance: every debit moves the one balance row, as the hot key's do.
    const team = await seedOrganisation(db, KEYS, 1_000_000_000)
    const sharedSpread = await batched(db, () =>
      throughput(SPREAD_DEBITS, CONCURRENCY, (i) =>
        consume(db, { keyId: team.keys[i % KEYS], tokens: 3, usageEventId: randomUUID(), product: 'embeddings' }),
      ),
    )
    const sharedAudit = await auditLedger(db)
    // The same with the keys in one project with a limit far above the run: one shared limit row counted too.
    const limitedTeam = await seedOrganisation(db, KEYS, 1_000_000_000, 1_000_000_000)
    const projectSpread = await batched(db, () =>
      throughput(SPREAD_DEBITS, CONCURRENCY, (i) =>
        consume(db, {
          keyId: limitedTeam.keys[i % KEYS],
          tokens: 3,
          usageEventId: randomUUID(),
          product: 'embeddings',
        }),
      ),
    )
    const projectAudit = await auditLedger(db)
    const bare = (id: (i: number) => number) => (i: number) =>
      db.execute(sql`update bench_counter set n = n - 3 where id = ${id(i)}`)
    const bareSpread = await throughput(
      SPREAD_DEBITS,
      CONCURRENCY,
      bare((i) => 1 + (i % KEYS)),
    )
    const bareHot = await throughput(
      HOT_DEBITS,
      CONCURRENCY,
      bare(() => 1),
    )

    const result = {
      benchmark: 'ledger-metering',
      postgres: settings.version,
      synchronous_commit: settings.synchronous_commit,
      fsync: settings.fsync,
      concurrency: CONCURRENCY,
      spread: {
        keys: KEYS,
        ...spread,
        audit_mismatches: spreadAudit.length,
        bare_update: bareSpread,
        ratio_to_bare: Number((spread.per_second / bareSpread.per_second).toFixed(2)),
      },
      auto_recharge_spread: {
        keys: KEYS,
        ...rechargeSpread,
        audit_mismatches: rechargeAudit.length,
        bare_update: bareSpread,
        ratio_to_bare: Number((rechargeSpread.per_second / bareSpread.per_second).toFixed(2)),
      },
      spend_limits_spread: {
        keys: KEYS,
        limits_per_key: 2,
        ...limitedSpread,
        audit_mismatches: limitedAudit.length,
        limits_counted_tokens: limitsCounted,
        bare_update: bareSpread,
        ratio_to_bare: Number((limitedSpread.per_second / bareSpread.per_second).toFixed(2)),
      },
      shared_balance_spread: {
        keys: KEYS,
        balance_rows: 1,
        ...sharedSpread,
        audit_mismatches: sharedAudit.length,
        bare_update: bareSpread,
        ratio_to_bare: Number((sharedSpread.per_second / bareSpread.per_second).toFixed(2)),
        ratio_to_bare_hot: Number((sharedSpread.per_second / bareHot.per_second).toFixed(2)),
      },
      project_limit_spread: {
        keys: KEYS,
        balance_rows: 1,
        project_limits: 1,
        ...projectSpread,
        audit_mismatches: projectAudit.length,
        ratio_to_bare_hot: Number((projectSpread.per_second / bareHot.per_second).toFixed(2)),
      },
      hot: {
        keys: 1,
        ...hotRun,
        audit_mismatches: hotAudit.length,
        bare_update: bareHot,
        ratio_to_bare: Number((hotRun.per_second / bareHot.per_second).toFixed(2)),
      },
      targets: {
        spread_per_second: 2000,
        hot_per_second: 500,
        auto_recharge_spread_per_second: 2000,
        spend_limits_spread_per_second: 2000,
      },
    }
    console.log(JSON.stringify(result, null, 2))
    if (process.env.BENCH_OUT) await writeFile(process.env.BENCH_OUT, JSON.stringify(result, null, 2))
    expect(spreadAudit).toEqual([])
    expect(hotAudit).toEqual([])
    expect(rechargeAudit).toEqual([])
    expect(limitedAudit).toEqual([])
    expect(sharedAudit).toEqual([])
    expect(projectAudit).toEqual([])
    expect(limitsCounted).toBe(SPREAD_DEBITS * 3)
  } finally {
    await database.close()
    await admin.db.execute(sql.raw(`drop database if exists "${name}" with (force)`))
    await admin.close()
  }
})
