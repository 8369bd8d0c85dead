// Writes README.md's configuration table from app/server/env-settings.ts (between the env-table markers).
// `node scripts/env-table.mjs --check` only says whether the README is current (exit 1 when not).
import { readFileSync, writeFileSync } from 'node:fs'
import { runnerImport } from 'vite'

const root = new URL('..', import.meta.url).pathname
const load = async (path) =>
  (await runnerImport(path, { configFile: false, root, logLevel: 'error', resolve: { tsconfigPaths: true } })).module
const [{ envTable, withEnvTable }, { envSettings }] = await Promise.all([
  load('/app/server/env-rules.ts'),
  load('/app/server/env-settings.ts'),
])
const readmePath = `${root}README.md`
const readme = readFileSync(readmePath, 'utf8')
const updated = withEnvTable(readme, envTable(envSettings()))
if (process.argv.includes('--check')) {
  console.log(
    updated === readme
      ? 'README.md: the configuration table is current'
      : 'README.md: the configuration table is stale: run node scripts/env-table.mjs',
  )
  process.exit(updated === readme ? 0 : 1)
}
writeFileSync(readmePath, updated)
console.log(
  updated === readme
    ? 'README.md: the configuration table was current'
    : 'README.md: configuration table written from app/server/env-settings.ts',
)
