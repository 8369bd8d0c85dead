// `npm start`: builds once on a fresh checkout, then serves the build with Node.
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'

const entry = new URL('../.output/server/index.mjs', import.meta.url)
if (!existsSync(entry) || process.env.REBUILD === 'true') {
  console.log('[start] no build found: running `npm run build` first')
  const build = spawnSync('npm', ['run', 'build'], { stdio: 'inherit', shell: process.platform === 'win32' })
  if (build.status !== 0) process.exit(build.status ?? 1)
}
await import(entry.href)
