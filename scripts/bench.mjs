// `npm run bench`: builds, runs every tests/bench/*.perf.ts against the production build and the ledger
// benchmark (tests/bench/ledger.bench.ts) against Postgres, and rewrites the measured section of
// BENCHMARKS.md from their results.
//
// Postgres: unless BENCH_POSTGRES=off, a fresh database is created on BENCH_POSTGRES_URL (else
// TEST_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/postgres) for the served build
// (BENCH_DATABASE_URL, read by tests/e2e/support/global-setup.ts) and dropped afterwards. Without a
// reachable Postgres the build is served on PGlite and the ledger benchmark is skipped.
// Arguments are vitest filters, e.g. `npm run bench -- key-info`; files they do not match are skipped.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { cpus } from 'node:os'
import postgres from 'postgres'

const failures = []
const run = (cmd, args, env = process.env) => {
  const result = spawnSync(cmd, args, { stdio: 'inherit', env })
  if (result.status !== 0) failures.push(`${cmd} ${args.join(' ')} exited with ${result.status ?? result.signal}`)
  return result.status === 0
}

const resultsDir = 'tests/bench/.results'
const filters = process.argv.slice(2)
// A filtered run replaces only its own suites' results and keeps the others' last numbers.
if (filters.length === 0) rmSync(resultsDir, { recursive: true, force: true })
mkdirSync(resultsDir, { recursive: true })
if (process.env.SKIP_BUILD !== 'true' && !run('npm', ['run', 'build'])) process.exit(1)

/** A fresh database for this run on the local Postgres, or undefined when there is none. */
async function createBenchDatabase() {
  if (process.env.BENCH_POSTGRES === 'off') return undefined
  const adminUrl =
    process.env.BENCH_POSTGRES_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {}, connect_timeout: 5 })
  const name = `bench_api_${Date.now().toString(36)}`
  try {
    await admin.unsafe(`create database "${name}"`)
  } catch (error) {
    console.warn(
      `[bench] no Postgres at ${adminUrl.replace(/\/\/[^@]*@/, '//')} (${error.message}): serving on PGlite, skipping the ledger benchmark`,
    )
    await admin.end({ timeout: 1 }).catch(() => {})
    return undefined
  }
  const url = new URL(adminUrl)
  url.pathname = `/${name}`
  return {
    adminUrl,
    url: url.toString(),
    async drop() {
      await admin
        .unsafe(`drop database if exists "${name}" with (force)`)
        .catch((error) => console.warn(`[bench] could not drop ${name}: ${error.message}`))
      await admin.end({ timeout: 5 })
    },
  }
}

const database = await createBenchDatabase()
try {
  const env = { ...process.env, ...(database ? { BENCH_DATABASE_URL: database.url } : {}) }
  run('npx', ['vitest', 'run', '--project', 'bench', '--passWithNoTests', ...filters], env)

  if (!database) {
    console.warn('[bench] ledger benchmark skipped: it needs Postgres')
  } else if (
    process.env.BENCH_LEDGER !== 'off' &&
    (filters.length === 0 || filters.some((f) => 'ledger'.includes(f)))
  ) {
    const out = `${resultsDir}/ledger.raw.out`
    rmSync(out, { force: true })
    // The ledger's file only (when the filters name it or nothing): the other *.bench.ts (webhooks, admin-usage,
    // reader-browser) write BENCH_OUT too and are run by their own commands (BENCHMARKS.md).
    run('npx', ['vitest', 'run', '--config', 'tests/bench/vitest.config.ts', 'ledger.bench'], {
      ...env,
      TEST_DATABASE_URL: database.adminUrl,
      BENCH_OUT: out,
    })
    if (existsSync(out)) {
      try {
        const results = ledgerResults(JSON.parse(readFileSync(out, 'utf8')))
        writeFileSync(`${resultsDir}/ledger.json`, JSON.stringify({ at: new Date().toISOString(), results }, null, 2))
      } catch (error) {
        failures.push(`could not read the ledger benchmark's output: ${error.message}`)
      }
      rmSync(out, { force: true })
    }
  }
} finally {
  await database?.drop()
}

/**
 * ledger.bench.ts prints one JSON object; every object in it with a `per_second` (spread, hot, …) is a
 * metering run, compared with its bare single-row UPDATE loop. Fields that are missing are left out,
 * so the conversion survives changes to that file.
 */
function ledgerResults(raw) {
  const num = (v) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined)
  const perSecond = (v) => num(v) ?? num(v?.per_second)
  const targets = raw.targets ?? {}
  const defaults = { spread: 2000, hot: 500 }
  const context = [
    raw.postgres && `Postgres ${raw.postgres}`,
    raw.synchronous_commit && `synchronous_commit=${raw.synchronous_commit}`,
    raw.metering_commit && `commit ${raw.metering_commit}`,
    raw.concurrency && `${raw.concurrency} in flight`,
  ]
  const results = []
  const visit = (node, path) => {
    if (!node || typeof node !== 'object' || Array.isArray(node)) return
    const rate = num(node.per_second)
    if (rate === undefined || path.length === 0) {
      for (const [k, v] of Object.entries(node)) if (!['targets', 'bare_update'].includes(k)) visit(v, [...path, k])
      return
    }
    const label = path.join(' ')
    const target = num(targets[`${path.join('_')}_per_second`]) ?? defaults[path.at(-1)]
    const bare =
      perSecond(node.bare_update) ?? num(node.bare_update_per_second) ?? num(node.bare_update_async_commit_per_second)
    const ratio = num(node.ratio_to_bare) ?? (bare ? Number((rate / bare).toFixed(2)) : undefined)
    const audit = num(node.audit_mismatches)
    const note = [
      node.keys !== undefined && `${node.keys} key${node.keys === 1 ? '' : 's'}`,
      node.ops !== undefined && `${node.ops} debits`,
      node.p99_ms !== undefined && `p50 ${node.p50_ms} ms, p99 ${node.p99_ms} ms`,
      node.mean_batch !== undefined && `mean batch ${node.mean_batch}`,
      audit !== undefined && (audit === 0 ? 'ledger audit passed' : `ledger audit: ${audit} mismatches`),
      ...context,
    ].filter(Boolean)
    results.push({
      name: `metering debits/s (${label})`,
      value: rate,
      unit: 'debits/s',
      ...(target ? { budget: { op: '>=', value: target } } : {}),
      note: note.join(', '),
    })
    if (bare !== undefined)
      results.push({
        name: `bare single-row UPDATE/s (${label}, the limit)`,
        value: bare,
        unit: 'updates/s',
        note: 'same Postgres, same concurrency',
      })
    if (ratio !== undefined) results.push({ name: `metering / bare UPDATE (${label})`, value: ratio, unit: '×' })
    if (audit !== undefined)
      results.push({
        name: `ledger audit mismatches after ${label}`,
        value: audit,
        unit: 'keys',
        budget: { op: '<', value: 1 },
      })
  }
  visit(raw, [])
  if (results.length === 0) throw new Error('no run with per_second found')
  return results
}

const path = 'BENCHMARKS.md'
const current = existsSync(path)
  ? readFileSync(path, 'utf8')
  : '# Benchmarks\n\n<!-- measured:start --><!-- measured:end -->\n'
const files = readdirSync(resultsDir).filter((f) => f.endsWith('.json'))
const keeps = (r) => !r.budget || (r.budget.op === '<' ? r.value < r.budget.value : r.value >= r.budget.value)
const rowsBySuite = new Map(
  files.map((file) => {
    const { at, results } = JSON.parse(readFileSync(`${resultsDir}/${file}`, 'utf8'))
    const suite = file.replace('.json', '')
    const rows = results.map(
      (r) =>
        `| ${suite} | ${r.name} | ${r.value} ${r.unit} | ${r.budget ? `${r.budget.op} ${r.budget.value}` : '–'} | ${r.budget ? (keeps(r) ? 'yes' : '**no**') : '–'} | ${r.note ?? ''} | ${at.slice(0, 10)} |`,
    )
    return [suite, rows]
  }),
)
// A filtered run on a fresh checkout has no results for the suites it skipped (.results is not committed):
// their last published rows stay in the table rather than vanishing.
for (const line of current.match(/<!-- measured:start -->[\s\S]*<!-- measured:end -->/)?.[0].split('\n') ?? []) {
  const suite = /^\| ([\w-]+) \| /.exec(line)?.[1]
  if (!suite || suite === 'suite' || files.includes(`${suite}.json`)) continue
  rowsBySuite.set(suite, [...(rowsBySuite.get(suite) ?? []), line])
}
const rows = [...rowsBySuite.keys()].sort().flatMap((suite) => rowsBySuite.get(suite))
const section = [
  '<!-- measured:start -->',
  `Last run: ${new Date().toISOString()} on ${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}.`,
  '',
  '| suite | measure | result | budget | kept | note | date |',
  '|---|---|---|---|---|---|---|',
  ...rows,
  '<!-- measured:end -->',
].join('\n')
writeFileSync(path, current.replace(/<!-- measured:start -->[\s\S]*<!-- measured:end -->/, section))
console.log(section)
if (failures.length > 0) {
  console.error(`[bench] ${failures.join('; ')}`)
  process.exit(1)
}
