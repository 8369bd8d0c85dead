import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort, portOpen } from './ports'

/** Whether Debian's pgbouncer is installed (`.ci/run` installs it). */
export function hasPgbouncer(): boolean {
  return spawnSync('pgbouncer', ['--version'], { stdio: 'ignore' }).status === 0
}

async function listening(port: number, deadline: number): Promise<void> {
  while (Date.now() < deadline) {
    if (await portOpen(port)) return
    await new Promise((r) => setTimeout(r, 50))
  }
  throw new Error(`pgbouncer did not listen on ${port}`)
}

/**
 * PgBouncer in transaction mode with Debian's defaults otherwise (no ignore_startup_parameters), in front of
 * the Postgres `upstream` points at (trust auth), on a free port. It refuses to run as root, so it runs as
 * `nobody` when the tests do.
 */
export async function startPgbouncer(
  upstream: string,
): Promise<{ url: (database: string) => string; stop(): Promise<void> }> {
  const target = new URL(upstream)
  const dir = mkdtempSync(join(tmpdir(), 'pgbouncer-'))
  const port = await freePort()
  writeFileSync(join(dir, 'userlist.txt'), `"${decodeURIComponent(target.username || 'postgres')}" ""\n`)
  writeFileSync(
    join(dir, 'pgbouncer.ini'),
    [
      '[databases]',
      `* = host=${target.hostname} port=${target.port || 5432}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'auth_type = trust',
      `auth_file = ${join(dir, 'userlist.txt')}`,
      'pool_mode = transaction',
      'unix_socket_dir =',
      'max_client_conn = 200',
      'default_pool_size = 20',
      '',
    ].join('\n'),
  )
  chmodSync(dir, 0o755)
  const root = process.getuid?.() === 0
  const child: ChildProcess = spawn('pgbouncer', [join(dir, 'pgbouncer.ini')], {
    stdio: ['ignore', 'ignore', 'pipe'],
    ...(root ? { uid: 65534, gid: 65534 } : {}),
  })
  let stderr = ''
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  try {
    await listening(port, Date.now() + 10_000)
  } catch (error) {
    child.kill('SIGKILL')
    throw new Error(`${(error as Error).message}: ${stderr.slice(-500)}`)
  }
  return {
    url(database) {
      const url = new URL(upstream)
      url.port = String(port)
      url.pathname = `/${database}`
      return url.toString()
    },
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve))
        child.kill('SIGTERM')
        await exited
      }
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
