import postgres from 'postgres'
import { Redis } from 'ioredis'
import { authEmulator, emulatorEnv, type AuthEmulator } from '../../support/auth-emulator'
import { startPgbouncer } from '../../support/pgbouncer'
import { serveBuild, type ServedBuild } from '../../e2e/support/server'
import { freePort } from '../../support/ports'
import { backendStates, startHaproxy, startS3, type Process } from './processes'

/** Redis database the cluster test owns (flushed at its start); the other tests use 0. */
export const CLUSTER_REDIS_DB = 7

/** The secrets every instance must share, set once for all. */
export const sharedSecrets = {
  CAPTCHA_SECRET: 'cluster-captcha-secret-0123456789',
  BULK_DOWNLOAD_SECRET: 'cluster-bulk-secret-0123456789',
  PAYMENTS_SANDBOX_SECRET: 'cluster-sandbox-secret-0123456789',
  KEY_ENCRYPTION_SECRET: 'cluster-key-encryption-secret-0123456789-0123',
}
export const usageToken = 'cluster-usage-service-token-0123456789'
export const metricsToken = 'cluster-metrics-token-0123456789'
const bucket = 'cluster-bulk'

export interface Instance extends ServedBuild {
  name: string
  port: number
}

export interface Cluster {
  /** The balancer's address: what clients call. */
  url: string
  instances: Instance[]
  /** The test's own connection to the cluster's database (direct, not through the pooler). */
  db: postgres.Sql
  /** The cluster database's direct URL (no pooler). */
  directUrl: string
  auth: AuthEmulator
  /** Resolves once HAProxy has every instance of the three up (a loaded machine can fail a check). */
  allUp(): Promise<void>
  /** Starts one more instance with the cluster's settings and `env` on top (not behind the balancer). */
  start(name: string, env?: Record<string, string>): Promise<Instance>
  stop(): Promise<void>
}

/**
 * Three production builds behind HAProxy, on one Postgres database (created here) through PgBouncer in
 * transaction mode, sharing Redis database 7 and an s3rver bucket, with the shared secrets set once.
 */
export async function startCluster(
  adminUrl: string,
  redisUrl: string,
  extraEnv: Record<string, string> = {},
): Promise<Cluster> {
  const name = `cluster_${process.pid}_${Date.now().toString(36)}`
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} })
  await admin.unsafe(`create database "${name}"`)
  const direct = new URL(adminUrl)
  direct.pathname = `/${name}`
  const db = postgres(direct.toString(), { max: 4, onnotice: () => {} })

  const redis = new URL(redisUrl)
  redis.pathname = `/${CLUSTER_REDIS_DB}`
  const flusher = new Redis(redis.toString(), { lazyConnect: true, maxRetriesPerRequest: 1 })
  await flusher.connect()
  await flusher.flushdb()
  flusher.disconnect()

  const started: Process[] = []
  const running: Instance[] = []
  let balancer: (Process & { statsUrl: string }) | undefined
  let auth: AuthEmulator | undefined
  let pooler: Awaited<ReturnType<typeof startPgbouncer>> | undefined
  const stop = async () => {
    await Promise.all(
      running.map((instance) =>
        instance.child.exitCode === null && !instance.child.signalCode
          ? instance.stop({ forceAfterMs: 10_000 })
          : undefined,
      ),
    )
    await Promise.all([...started.map((p) => p.stop()), auth?.stop(), pooler?.stop()])
    await db.end({ timeout: 5 })
    await admin.unsafe(`drop database if exists "${name}" with (force)`)
    await admin.end({ timeout: 5 })
  }
  // The emulator takes the longest to start (about 12 s of one core); the instances need only its address, so
  // they start while it does.
  const projectId = 'demo-lodestar-cluster'
  const authPort = await freePort()
  const authStarting = authEmulator(projectId, authPort)
  // Awaited below; a failure meanwhile (the cluster's own comes first) is not an unhandled rejection.
  authStarting.catch(() => undefined)
  try {
    const [s3, bouncer, ports] = await Promise.all([
      startS3(bucket),
      startPgbouncer(adminUrl),
      Promise.all([freePort(), freePort(), freePort()]),
    ])
    started.push(s3)
    pooler = bouncer
    const names = ['web-1', 'web-2', 'web-3']
    balancer = await startHaproxy(names.map((n, i) => ({ name: n, port: ports[i] })))
    started.push(balancer)
    const publicUrl = balancer.url
    const settings: Record<string, string> = {
      ...sharedSecrets,
      ...emulatorEnv(projectId, `127.0.0.1:${authPort}`),
      DATABASE_URL: bouncer.url(name),
      DATABASE_POOLER: 'transaction',
      DATABASE_POOL_MAX: '4',
      REDIS_URL: redis.toString(),
      S3_BUCKET: bucket,
      S3_ENDPOINT: s3.url,
      S3_FORCE_PATH_STYLE: 'true',
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      PUBLIC_BASE_URL: publicUrl,
      PUBLIC_API_BASE_URL: publicUrl,
      USAGE_SERVICE_TOKEN: usageToken,
      METRICS_TOKEN: metricsToken,
      BULK_LEASE_SECONDS: '4',
      RATE_LIMIT_TRIAL: '1000/3600',
      RATE_LIMIT_EMPTY: '1000/3600',
      CAPTCHA_DIFFICULTY: '1000',
      DRAIN_DELAY_MS: '3000',
      SERVER_SHUTDOWN_TIMEOUT: '10',
      LOG_LEVEL: 'info',
      // Graceful shutdown on, as in production (CI and TEST turn it off).
      CI: '',
      TEST: '',
      ...extraEnv,
    }
    const start = async (instanceName: string, env: Record<string, string> = {}, port?: number) => {
      const instance = await serveBuild({ ...settings, INSTANCE_ID: instanceName, ...env }, port ? { port } : {})
      const served = Object.assign(instance, { name: instanceName, port: Number(new URL(instance.baseUrl).port) })
      running.push(served)
      return served
    }
    // One first, so the others start on a migrated database (they would wait on its lock anyway).
    const first = await start(names[0], {}, ports[0])
    const rest = await Promise.all(names.slice(1).map((n, i) => start(n, {}, ports[i + 1])))
    const instances = [first, ...rest]
    const statsUrl = balancer.statsUrl
    const allUp = async () => {
      const deadline = Date.now() + 30_000
      for (;;) {
        const states = await backendStates(statsUrl)
        if (names.every((n) => states[n] === 'UP')) return
        if (Date.now() > deadline) throw new Error(`HAProxy has not every instance up: ${JSON.stringify(states)}`)
        await new Promise((r) => setTimeout(r, 100))
      }
    }
    await allUp()
    auth = await authStarting
    return {
      url: publicUrl,
      instances,
      db,
      directUrl: direct.toString(),
      auth,
      allUp,
      start: (n, env) => start(n, env),
      stop,
    }
  } catch (error) {
    // The emulator is stopped once it has started, which may be after the failure.
    await authStarting.then(
      (emulator) => emulator.stop(),
      () => undefined,
    )
    await stop().catch(() => undefined)
    throw error
  }
}
