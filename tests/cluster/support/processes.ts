import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort, portOpen } from '../../support/ports'

/** Whether Debian's haproxy is installed (`.ci/run` installs it). */
export function hasHaproxy(): boolean {
  return spawnSync('haproxy', ['-v'], { stdio: 'ignore' }).status === 0
}

async function listening(port: number, child: ChildProcess, what: string, output: () => string): Promise<void> {
  const deadline = Date.now() + 20_000
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${what} exited with ${child.exitCode}: ${output().slice(-800)}`)
    if (await portOpen(port)) return
    await new Promise((r) => setTimeout(r, 50))
  }
  child.kill('SIGKILL')
  throw new Error(`${what} did not listen on ${port}: ${output().slice(-800)}`)
}

export interface Process {
  url: string
  port: number
  output(): string
  stop(): Promise<void>
}

function started(command: string, args: string[], dir: string): { child: ChildProcess; output: () => string } {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  child.stdout!.on('data', (chunk) => (output += chunk))
  child.stderr!.on('data', (chunk) => (output += chunk))
  void dir
  return { child, output: () => output }
}

async function stopped(child: ChildProcess, dir: string): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve))
    child.kill('SIGTERM')
    const force = setTimeout(() => child.kill('SIGKILL'), 5_000)
    await exited
    clearTimeout(force)
  }
  rmSync(dir, { recursive: true, force: true })
}

/**
 * An S3-compatible server as its own process: s3rver (from npm), with `bucket` created, on a free loopback
 * port. Its credentials are its fixed S3RVER / S3RVER, and it checks each request's signature with them.
 */
export async function startS3(bucket: string): Promise<Process> {
  const dir = mkdtempSync(join(tmpdir(), 'cluster-s3-'))
  const port = await freePort()
  const bin = join(process.cwd(), 'node_modules/s3rver/bin/s3rver.js')
  const { child, output } = started(
    process.execPath,
    [bin, '-d', dir, '-a', '127.0.0.1', '-p', String(port), '--configure-bucket', bucket],
    dir,
  )
  await listening(port, child, 's3rver', output)
  return { url: `http://127.0.0.1:${port}`, port, output, stop: () => stopped(child, dir) }
}

/**
 * HAProxy in front of `backends` (loopback ports): round robin, each checked on /healthz every 500 ms and out
 * after two failed checks, a connection refused retried on another server, as README "Deploying at scale" has
 * it; its statistics (CSV) on a port of their own.
 */
export async function startHaproxy(
  backends: Array<{ name: string; port: number }>,
): Promise<Process & { statsUrl: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'cluster-haproxy-'))
  const [port, statsPort] = await Promise.all([freePort(), freePort()])
  const config = [
    'global',
    '  maxconn 2000',
    'defaults',
    '  mode http',
    '  timeout connect 2s',
    '  timeout client 60s',
    '  timeout server 60s',
    // A loaded two-core machine answers a check in more than the interval now and then: not a failure.
    '  timeout check 3s',
    'listen stats',
    `  bind 127.0.0.1:${statsPort}`,
    '  stats enable',
    '  stats uri /stats',
    'frontend api',
    `  bind 127.0.0.1:${port}`,
    '  default_backend app',
    'backend app',
    '  balance roundrobin',
    '  option redispatch',
    '  retries 2',
    '  retry-on conn-failure',
    '  option httpchk GET /healthz',
    '  http-check expect status 200',
    '  default-server inter 500ms fall 2 rise 1',
    ...backends.map(({ name, port: backend }) => `  server ${name} 127.0.0.1:${backend} check`),
    '',
  ].join('\n')
  writeFileSync(join(dir, 'haproxy.cfg'), config)
  const { child, output } = started('haproxy', ['-db', '-f', join(dir, 'haproxy.cfg')], dir)
  await listening(port, child, 'haproxy', output)
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    output,
    stop: () => stopped(child, dir),
    statsUrl: `http://127.0.0.1:${statsPort}/stats;csv`,
  }
}

/** Each backend server's state as HAProxy's statistics page has it (`UP`, `DOWN`, …). */
export async function backendStates(statsUrl: string): Promise<Record<string, string>> {
  const csv = await (await fetch(statsUrl)).text()
  const [header, ...rows] = csv.trim().split('\n')
  const columns = header.replace(/^# /, '').split(',')
  const at = (name: string) => columns.indexOf(name)
  return Object.fromEntries(
    rows
      .map((row) => row.split(','))
      .filter((cells) => cells[at('pxname')] === 'app' && !['FRONTEND', 'BACKEND'].includes(cells[at('svname')]))
      .map((cells) => [cells[at('svname')], cells[at('status')]]),
  )
}
