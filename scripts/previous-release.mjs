// The previous release's production build, for the rolling-deploy test (tests/cluster/rolling-deploy.test.ts):
// the source of PREVIOUS_RELEASE (a fixed commit, moved on at each release) taken out of git with `git archive`,
// given this checkout's node_modules when its lockfile is the same (else its own, installed from its lockfile),
// and built once per machine: a commit's build never changes, so every checkout and every later run (CI's clean
// clone included) reuses it from the user's cache folder, as npm reuses its downloads. Prints the path of its
// server entry.
import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, symlinkSync } from 'node:fs'
import { homedir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

/** The release before this one: main as the cluster work began (before migration 0016, scheduled_runs). */
export const PREVIOUS_RELEASE = '7ae65c13c2e82fddb66b0a7f62310f4724a595bb'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')

/** Where built releases are kept: PREVIOUS_RELEASE_CACHE, else the user's cache folder. */
const releaseCache = () =>
  process.env.PREVIOUS_RELEASE_CACHE ??
  join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'lodestar', 'previous-release')

/** Builds the previous release unless its build is there; answers its server entry. */
export function previousReleaseBuild(commit = PREVIOUS_RELEASE) {
  const built = join(releaseCache(), commit)
  const entry = join(built, '.output/server/index.mjs')
  if (existsSync(entry)) return entry
  // Built aside and moved into place whole: an interrupted build, or another checkout building the same commit at
  // the same time, never leaves a half build where the next run would take it for done.
  const dir = `${built}.building-${process.pid}`
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
  if (build.status !== 0 || !existsSync(join(dir, '.output/server/index.mjs')))
    throw new Error(`building ${commit} failed:\n${`${build.stdout}\n${build.stderr}`.slice(-4000)}`)
  // The server runs from .output alone (Nitro traced what it needs into it); the linked dependencies would point
  // at a checkout that may be gone.
  rmSync(join(dir, 'node_modules'), { recursive: true, force: true })
  try {
    renameSync(dir, built)
  } catch (error) {
    // Another run finished first: its build is the same.
    if (!existsSync(entry)) throw error
    rmSync(dir, { recursive: true, force: true })
  }
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
