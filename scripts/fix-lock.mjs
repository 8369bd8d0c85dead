// `node scripts/fix-lock.mjs` after changing dependencies. Adds lock entries for optional platform packages that
// `npm install` left out (the registry mirror here lacks some of them), so `npm ci` accepts the lock; on this
// platform npm skips them by os/cpu. Exits 1, saying why, when the lock is still refused.
import { execSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'

const systems = ['darwin', 'win32', 'android', 'freebsd', 'openharmony']
const cpus = ['wasm32', 'arm64', 'x64', 'ppc64', 's390x', 'arm', 'ia32']
/** The platform a package's name says it is for (`@rolldown/binding-darwin-arm64`): wasm32 has no system. */
const osOf = (name) => (name.includes('wasm32') ? null : (systems.find((os) => name.includes(os)) ?? 'linux'))
const cpuOf = (name) => cpus.find((cpu) => name.includes(cpu)) ?? null

/** `npm ci --dry-run`'s complaint, or undefined when it accepts the lock. */
function refusal() {
  try {
    execSync('npm ci --dry-run', { stdio: 'pipe' })
    return undefined
  } catch (error) {
    return String(error.stderr) + String(error.stdout)
  }
}

/** Adds an entry for each missing optional package; how many it added. */
function addMissing(lock, missing) {
  let added = 0
  for (const { name, version } of missing) {
    for (const [path, info] of Object.entries(lock.packages)) {
      const spec = info.optionalDependencies?.[name]
      if (!spec) continue
      const want = spec.replace(/^[\^~]/, '')
      if (version && want !== version) continue
      const top = `node_modules/${name}`
      const target = !lock.packages[top] || lock.packages[top].version === want ? top : `${path}/node_modules/${name}`
      if (lock.packages[target]) continue
      const entry = { version: want, optional: true }
      if (info.dev) entry.dev = true
      if (info.devOptional) entry.devOptional = true
      const os = osOf(name)
      const cpu = cpuOf(name)
      if (os) entry.os = [os]
      if (cpu) entry.cpu = [cpu]
      if (name.includes('musl')) entry.libc = ['musl']
      lock.packages[target] = entry
      added++
      console.log('stubbed', target, want)
    }
  }
  return added
}

for (let round = 0; round < 5; round++) {
  const complaint = refusal()
  if (complaint === undefined) {
    console.log('lock accepted')
    process.exit(0)
  }
  const missing = [...complaint.matchAll(/Missing: (@?[^@\s]+)@(\S*) from lock file/g)].map((m) => ({
    name: m[1],
    version: m[2],
  }))
  const lock = JSON.parse(readFileSync('package-lock.json', 'utf8'))
  if (!missing.length || addMissing(lock, missing) === 0) {
    console.error(
      `fix-lock: npm ci still refuses the lock, and not for a missing platform package:\n${complaint.slice(0, 2000)}`,
    )
    process.exit(1)
  }
  lock.packages = Object.fromEntries(
    Object.entries(lock.packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))),
  )
  writeFileSync('package-lock.json', JSON.stringify(lock, null, 2) + '\n')
}
console.error('fix-lock: npm ci still refuses the lock after five rounds of adding platform packages')
process.exit(1)
