import { hostname } from 'node:os'
import { sql } from 'drizzle-orm'
import { serverEnv, type ServerEnv } from '../env'
import { getDatabase } from '../db/client'
import { onShutdown } from '../lifecycle'
import { log, setLogInstance } from '../log'
import type { Db } from '../db/types'
import { rowsOf } from '../db/rows'
import { secretOf } from '../providers/identity/key-crypto'
import { isGone, thisProcessPlace, type ProcessPlace } from '../providers/process-place'

/** How often an instance says it is alive, and how long after its last word another one counts it as live. */
export const HEARTBEAT_MS = 10_000
const LIVE_SECONDS = 30
const LOCK_ID = 7_441_121

/** This process's name in logs and in `app_instances`: INSTANCE_ID, or host name and process id. */
export function instanceId(env: ServerEnv): string {
  return env.INSTANCE_ID ?? `${hostname()}-${process.pid}`
}

/** A fingerprint that names a secret's value without revealing it. */
async function fingerprint(name: string, value: string): Promise<string> {
  const digest = await crypto.subtle.digest(
    'SHA-256',
    new TextEncoder().encode(`instance-secret-check:${name}:${value}`),
  )
  return Array.from(new Uint8Array(digest.slice(0, 16)), (b) => b.toString(16).padStart(2, '0')).join('')
}

/**
 * Every secret that must be equal on all instances, as fingerprints; one left random per process is
 * `random:<instance>`, which no other instance can match.
 */
export async function sharedSecretFingerprints(env: ServerEnv, id: string): Promise<Record<string, string>> {
  const random = `random:${id}`
  const of = async (name: string, value: string | undefined) => (value ? await fingerprint(name, value) : random)
  const secrets: Record<string, string> = {
    BULK_DOWNLOAD_SECRET: await of('BULK_DOWNLOAD_SECRET', env.BULK_DOWNLOAD_SECRET),
    // Unset, it is the data folder's own: equal only where instances share DATA_DIR.
    KEY_ENCRYPTION_SECRET: await fingerprint('KEY_ENCRYPTION_SECRET', await secretOf(env)),
  }
  if (!env.TURNSTILE_SECRET_KEY) secrets.CAPTCHA_SECRET = await of('CAPTCHA_SECRET', env.CAPTCHA_SECRET)
  if (env.PAYMENTS_SANDBOX === 'on')
    secrets.PAYMENTS_SANDBOX_SECRET = await of('PAYMENTS_SANDBOX_SECRET', env.PAYMENTS_SANDBOX_SECRET)
  return secrets
}

/** Thrown when a live instance holds a different value of a shared secret (or one of them is random). */
export class SharedSecretsDiffer extends Error {
  constructor(readonly names: string[]) {
    super(
      `Another instance on this database is live with different ${names.join(', ')}: ` +
        'set each of them to the same value on every instance',
    )
    this.name = 'SharedSecretsDiffer'
  }
}

interface InstanceRow {
  id: string
  secrets: Record<string, string>
  pid: number | null
  process_scope: string | null
  process_started: string | null
}

/**
 * Registers this instance, unless another one seen in the last 30 s holds a different value of a shared
 * secret (then `SharedSecretsDiffer`, naming the variables), and keeps its heartbeat until `leave`.
 * Checked and written under a lock, so two instances starting together cannot both miss each other. A row
 * whose process is known to be gone (on this machine, its pid ended: a crash or a SIGKILL that never left)
 * is removed rather than counted, so a server restarted at once starts; one elsewhere counts until 30 s pass.
 */
export async function joinInstances(
  db: Db,
  id: string,
  secrets: Record<string, string>,
  place: ProcessPlace = thisProcessPlace(),
): Promise<{ leave(): Promise<void> }> {
  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${LOCK_ID})`)
    const rows = rowsOf<InstanceRow>(
      await tx.execute(sql`select id, secrets, pid, process_scope, process_started from app_instances
        where id <> ${id} and seen_at > now() - make_interval(secs => ${LIVE_SECONDS})`),
    )
    const gone = rows.filter((row) => isGone({ pid: row.pid, scope: row.process_scope, started: row.process_started }))
    for (const row of gone) {
      await tx.execute(sql`delete from app_instances where id = ${row.id}`)
      log('info', 'instance row of a process that is gone removed', { instance_gone: row.id, pid: row.pid })
    }
    const differing = new Set<string>()
    for (const other of rows.filter((row) => !gone.includes(row)))
      for (const [name, value] of Object.entries(secrets))
        if (other.secrets[name] !== undefined && other.secrets[name] !== value) differing.add(name)
    if (differing.size) throw new SharedSecretsDiffer([...differing].sort())
    await tx.execute(sql`delete from app_instances where seen_at < now() - interval '1 day'`)
    await tx.execute(sql`insert into app_instances (id, secrets, pid, process_scope, process_started)
      values (${id}, ${JSON.stringify(secrets)}::jsonb, ${place.pid}, ${place.scope}, ${place.started})
      on conflict (id) do update set secrets = excluded.secrets, seen_at = now(), pid = excluded.pid,
        process_scope = excluded.process_scope, process_started = excluded.process_started`)
  })
  const timer = setInterval(() => {
    void db.execute(sql`update app_instances set seen_at = now() where id = ${id}`).catch(() => undefined)
  }, HEARTBEAT_MS)
  timer.unref?.()
  return {
    async leave() {
      clearInterval(timer)
      await db.execute(sql`delete from app_instances where id = ${id}`).catch(() => undefined)
    },
  }
}

let joining: Promise<void> | undefined

/**
 * Joins this server to the instances on its Postgres (PGlite serves one process only). A server whose
 * shared secrets differ from a live instance's logs which variables and exits: challenges, links, payment
 * events and sealed keys of one would fail on the other. A database not reachable yet: the next request retries.
 */
export function registerInstance(): void {
  joining ??= (async () => {
    const env = serverEnv()
    const id = instanceId(env)
    setLogInstance(id)
    const database = await getDatabase()
    if (database.kind !== 'postgres') return
    const membership = await joinInstances(database.db, id, await sharedSecretFingerprints(env, id))
    onShutdown(() => membership.leave())
  })().catch((error: unknown) => {
    if (error instanceof SharedSecretsDiffer) {
      log('error', 'refusing to start: shared secrets differ from a live instance', { variables: error.names })
      process.exit(1)
    }
    joining = undefined
  })
}
