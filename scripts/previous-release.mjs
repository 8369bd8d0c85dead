// The previous release's production build, for the rolling-deploy test (tests/cluster/rolling-deploy.test.ts):
// the source of PREVIOUS_RELEASE (a fixed commit, moved on at each release) taken out of git with `git archive`
// into .cache/previous-release/<commit>/, given this checkout's node_modules when its lockfile is the same (else
// its own, installed from its lockfile), and built there once. Later runs reuse the build. Prints the path of
// its server entry.
import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

/** The release before this one: main as the cluster work began (before migration 0016, scheduled_runs). */
export const PREVIOUS_RELEASE = '7ae65c13c2e82fddb66b0a7f62310f4724a595bb'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')

/** Builds the previous release unless its build is there; answers its server entry. */
export function previousReleaseBuild(commit = PREVIOUS_RELEASE) {
  const dir = join(root, '.cache/previous-release', commit)
  const entry = join(dir, '.output/server/index.mjs')
  if (existsSync(entry)) return entry
  rmSync(dir, { recursive: true, force: true })
  mkdirSync(dir, { recursive: true })
  // git archive writes no worktree metadata into the repository, unlike `git worktree add`.
  const archive = execFileSync('git', ['archive', '--format=tar', commit], { cwd: root, maxBuffer: 1 << 30 })
  const untar = spawnSync('tar', ['-x', '-C', dir], { input: archive })
  if (untar.status !== 0) throw new Error(`unpacking ${commit} failed: ${untar.stderr}`)
  provideDependencies(dir)
  const build = spawnSync(process.execPath, [join(dir, 'node_modules/vite/bin/vite.js'), 'build'], {
    cwd: dir,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
    env: { ...process.env, NODE_ENV: 'production' },
  })
  if (build.status !== 0 || !existsSync(entry))
    throw new Error(`building ${commit} failed:\n${`${build.stdout}\n${build.stderr}`.slice(-4000)}`)
  return entry
}

/**
 * The release's dependencies: this checkout's, linked, when the two lockfiles agree. Otherwise a hard-linked copy
 * of this checkout's `node_modules` brought to the release's lockfile by `npm install`, which only adds, removes
 * or swaps the packages the two lockfiles disagree on (seconds, where a whole `npm ci` took minutes beside the
 * e2e phase): a dependency this release dropped, or moved to another version, must not break the old build.
 * Without install scripts: the build needs none, and some (onnxruntime-node's) would fetch from the internet.
 */
function provideDependencies(dir) {
  const lock = (folder) => readFileSync(join(folder, 'package-lock.json'), 'utf8')
  if (lock(dir) === lock(root)) return symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir')
  const copy = spawnSync('cp', ['-al', join(root, 'node_modules'), join(dir, 'node_modules')], { encoding: 'utf8' })
  if (copy.status !== 0) throw new Error(`copying node_modules failed: ${copy.stderr}`)
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'
  const install = spawnSync(
    npm,
    ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--prefer-offline', '--no-save'],
    { cwd: dir, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  )
  if (install.status !== 0)
    throw new Error(
      `installing the dependencies of ${dir} failed:\n${`${install.stdout}\n${install.stderr}`.slice(-4000)}`,
    )
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(previousReleaseBuild(process.argv[2]))
