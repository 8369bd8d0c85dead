// `npm test`: every check, in phases. The checks of one phase share nothing and are each mostly single-threaded
// (ESLint, tsc, the bundler), so on a small machine they run side by side; the test phases after them fill
// both cores themselves and run alone, the browser tests after them (two files at a time, the workerd smoke test
// beside them), and the e2e checks that hold the server to a time last and alone, as they need.
// Each job's output is shown whole when it ends (not interleaved), and a summary of the times at the end.
import { spawn } from 'node:child_process'

const vitest = (...projects) => ['npx', 'vitest', 'run', ...projects.flatMap((p) => ['--project', p])]
/**
 * With the test services set (CI sets them), the integration files that open a database run a second time as a
 * fresh clone runs them, on the embedded PGlite without the TEST_* variables (project `integration-embedded`):
 * otherwise a failure that shows only there would never show in CI. One file at a time, beside the browser tests.
 */
const services = !!(process.env.TEST_DATABASE_URL || process.env.TEST_REDIS_URL)
const phases = [
  [
    { name: 'lint', command: ['npm', 'run', '--silent', 'lint'] },
    { name: 'typecheck', command: ['npx', 'tsc', '--noEmit'] },
    { name: 'build', command: ['npm', 'run', '--silent', 'build'] },
  ],
  [{ name: 'unit, integration, build checks', command: vitest('unit', 'integration', 'build') }],
  // The workerd smoke test, the previous release's build (for the rolling-deploy test) and the embedded-database
  // pass beside the browser tests, which leave the cores idle while pages and servers answer: each has its own
  // database, ports and build directory, and the e2e servers use no Redis.
  [
    { name: 'e2e (Chromium)', command: vitest('e2e'), stream: true },
    { name: 'edge (workerd)', command: vitest('edge') },
    { name: 'previous release build', command: ['node', 'scripts/previous-release.mjs'] },
    ...(services ? [{ name: 'integration, embedded database', command: vitest('integration-embedded') }] : []),
  ],
  [{ name: 'cluster (HAProxy, PgBouncer, S3)', command: vitest('cluster') }],
  [{ name: 'rolling deploy (previous release beside this one)', command: vitest('rolling') }],
  // Timing checks (event-loop stalls, a shutdown's drain) last, on a machine nothing else loads.
  [{ name: 'e2e timing checks', command: vitest('e2e-timing') }],
]

function run({ name, command }, { stream }) {
  const started = Date.now()
  return new Promise((resolve) => {
    const child = spawn(command[0], command.slice(1), {
      stdio: stream ? 'inherit' : ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, FORCE_COLOR: process.env.FORCE_COLOR ?? (process.stdout.isTTY ? '1' : '0') },
    })
    let output = ''
    child.stdout?.on('data', (chunk) => (output += chunk))
    child.stderr?.on('data', (chunk) => (output += chunk))
    child.on('close', (code, signal) => {
      const seconds = Math.round((Date.now() - started) / 1000)
      if (!stream) process.stdout.write(output)
      const outcome = code === 0 ? 'passed' : `FAILED (${signal ?? `exit ${code}`})`
      console.log(`[test] ${name}: ${outcome} in ${seconds} s`)
      resolve({ name, ok: code === 0, seconds })
    })
  })
}

const started = Date.now()
const results = []
for (const phase of phases) {
  // A lone job, or the one marked, streams its output as it goes: a long browser run shows progress.
  const outcomes = await Promise.all(phase.map((job) => run(job, { stream: phase.length === 1 || job.stream })))
  results.push(...outcomes)
  if (outcomes.some((outcome) => !outcome.ok)) break
}
const total = Math.round((Date.now() - started) / 1000)
console.log(`\n[test] ${results.map((r) => `${r.name} ${r.seconds} s${r.ok ? '' : ' (failed)'}`).join(' · ')}`)
const failed = results.filter((r) => !r.ok)
console.log(`[test] ${failed.length ? `failed: ${failed.map((r) => r.name).join(', ')}` : 'all passed'} in ${total} s`)
process.exit(failed.length ? 1 : 0)
