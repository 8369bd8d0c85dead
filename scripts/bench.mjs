// `npm run bench`: builds, runs every tests/bench/*.perf.ts against the production build and
// rewrites the measured section of BENCHMARKS.md from their results.
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { cpus } from 'node:os'

const run = (cmd, args) => {
  const result = spawnSync(cmd, args, { stdio: 'inherit' })
  if (result.status !== 0) process.exit(result.status ?? 1)
}

const resultsDir = 'tests/bench/.results'
rmSync(resultsDir, { recursive: true, force: true })
if (process.env.SKIP_BUILD !== 'true') run('npm', ['run', 'build'])
run('npx', ['vitest', 'run', '--project', 'bench', ...process.argv.slice(2)])

const files = existsSync(resultsDir) ? readdirSync(resultsDir).filter((f) => f.endsWith('.json')).sort() : []
const keeps = (r) => !r.budget || (r.budget.op === '<' ? r.value < r.budget.value : r.value >= r.budget.value)
const rows = files.flatMap((file) => {
  const { at, results } = JSON.parse(readFileSync(`${resultsDir}/${file}`, 'utf8'))
  return results.map((r) => `| ${file.replace('.json', '')} | ${r.name} | ${r.value} ${r.unit} | ${r.budget ? `${r.budget.op} ${r.budget.value}` : '–'} | ${r.budget ? (keeps(r) ? 'yes' : '**no**') : '–'} | ${r.note ?? ''} | ${at.slice(0, 10)} |`)
})
const section = [
  '<!-- measured:start -->',
  `Last run: ${new Date().toISOString()} on ${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}.`,
  '',
  '| suite | measure | result | budget | kept | note | date |',
  '|---|---|---|---|---|---|---|',
  ...rows,
  '<!-- measured:end -->',
].join('\n')
const path = 'BENCHMARKS.md'
const current = existsSync(path) ? readFileSync(path, 'utf8') : '# Benchmarks\n\n<!-- measured:start --><!-- measured:end -->\n'
writeFileSync(path, current.replace(/<!-- measured:start -->[\s\S]*<!-- measured:end -->/, section))
console.log(section)
