// `node scripts/fix-lock.mjs` after changing dependencies. Adds lock entries for optional platform packages that `npm install` left out (the registry mirror here
// lacks some of them), so `npm ci` accepts the lock; on this platform npm skips them by os/cpu.
import { execSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
const osOf = (n) =>
  n.includes('darwin')
    ? 'darwin'
    : n.includes('win32')
      ? 'win32'
      : n.includes('android')
        ? 'android'
        : n.includes('freebsd')
          ? 'freebsd'
          : n.includes('openharmony')
            ? 'openharmony'
            : n.includes('wasm32')
              ? null
              : 'linux'
const cpuOf = (n) =>
  n.includes('wasm32')
    ? 'wasm32'
    : n.includes('arm64')
      ? 'arm64'
      : n.includes('x64')
        ? 'x64'
        : n.includes('ppc64')
          ? 'ppc64'
          : n.includes('s390x')
            ? 's390x'
            : n.includes('arm')
              ? 'arm'
              : n.includes('ia32')
                ? 'ia32'
                : null
for (let round = 0; round < 5; round++) {
  const lock = JSON.parse(readFileSync('package-lock.json', 'utf8'))
  let out = ''
  try {
    execSync('npm ci --dry-run', { stdio: 'pipe' })
    console.log('lock accepted')
    break
  } catch (e) {
    out = String(e.stderr) + String(e.stdout)
  }
  const missing = [...out.matchAll(/Missing: (@?[^@\s]+)@(\S*) from lock file/g)].map((m) => ({
    name: m[1],
    version: m[2],
  }))
  if (!missing.length) {
    console.log(out.slice(0, 2000))
    break
  }
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
      const os = osOf(name),
        cpu = cpuOf(name)
      if (os) entry.os = [os]
      if (cpu) entry.cpu = [cpu]
      if (name.includes('musl')) entry.libc = ['musl']
      lock.packages[target] = entry
      console.log('stubbed', target, want)
    }
  }
  lock.packages = Object.fromEntries(
    Object.entries(lock.packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))),
  )
  writeFileSync('package-lock.json', JSON.stringify(lock, null, 2) + '\n')
}
