import { and, asc, eq, isNull, lte, sql, type SQL } from 'drizzle-orm'
import { rowsOf } from '../db/rows'
import { webhookDeliveries, webhookEndpoints, webhookEvents } from '../db/schema'
import type { Db } from '../db/types'
import { endpointsOf, webhookOwnerOfKey, type WebhookOwner } from './webhook-owner'

/**
 * The webhook outbox's two steps, each safe on every instance at once: fanning events out into deliveries
 * (events claimed with SKIP LOCKED, so each is fanned out once), and claiming due deliveries with a lease
 * (SKIP LOCKED, then `next_attempt_at` moved past the attempt), as the mail outbox does. Time is the
 * database's unless a test passes `now`, which then stands for the database's clock everywhere here.
 */
export type Clock = Date | undefined

/** The moment `now` stands for, in SQL. */
export const at = (now: Clock): SQL => (now ? sql`${now.toISOString()}::timestamptz` : sql`now()`)

/** Retries after the first attempt, as Standard Webhooks suggests: 5 s, 5 min, 30 min, 2 h, 5 h, then every 10 h. */
export const RETRY_SCHEDULE_SECONDS = [5, 5 * 60, 30 * 60, 2 * 3600, 5 * 3600, 10 * 3600]
/** A delivery is retried for three days after it was made; then it has failed. */
export const RETRY_FOR_SECONDS = 3 * 86_400
/** An endpoint whose every attempt failed for three days is disabled (`disabled_reason = 'failing'`). */
export const DISABLE_AFTER_SECONDS = 3 * 86_400
/** How long a worker holds a claimed delivery (an attempt takes at most its 10 s timeout). */
const LEASE_SECONDS = 60

/** The wait after attempt `attempts` failed, within ±10 % so that many failed deliveries do not return at once. */
export function retryDelaySeconds(attempts: number, random = Math.random): number {
  const base = RETRY_SCHEDULE_SECONDS[Math.min(Math.max(attempts, 1), RETRY_SCHEDULE_SECONDS.length) - 1]
  return Math.round(base * (0.9 + 0.2 * random()))
}

/** Fans out up to `batch` events in one transaction: one delivery per endpoint of the owner that wants it. */
export async function fanOutEvents(db: Db, now: Clock, batch = 100): Promise<number> {
  return db.transaction(async (tx) => {
    const events = await tx
      .select()
      .from(webhookEvents)
      .where(isNull(webhookEvents.fannedOutAt))
      .orderBy(asc(webhookEvents.createdAt))
      .limit(batch)
      .for('update', { skipLocked: true })
    for (const event of events) {
      const owner: WebhookOwner = event.keyId
        ? await webhookOwnerOfKey(tx, event.keyId)
        : { accountId: event.ownerAccountId, organisationId: event.organisationId }
      const whose = endpointsOf(owner)
      const endpoints = whose
        ? await tx
            .select({ id: webhookEndpoints.id })
            .from(webhookEndpoints)
            .where(
              and(
                whose,
                isNull(webhookEndpoints.disabledAt),
                sql`${event.type} = any(${webhookEndpoints.events})`,
                lte(webhookEndpoints.createdAt, event.createdAt),
              ),
            )
        : []
      // An event nobody asked for is not kept: most keys' owners have no endpoint.
      if (endpoints.length === 0) {
        await tx.delete(webhookEvents).where(eq(webhookEvents.id, event.id))
        continue
      }
      await tx
        .insert(webhookDeliveries)
        .values(endpoints.map(({ id }) => ({ eventId: event.id, endpointId: id, nextAttemptAt: at(now) })))
      await tx
        .update(webhookEvents)
        .set({ fannedOutAt: at(now) })
        .where(eq(webhookEvents.id, event.id))
    }
    return events.length
  })
}

/** A claimed delivery, with what its attempt needs. */
export interface DueDelivery {
  id: string
  attempts: number
  event: { id: string; type: string; data: Record<string, unknown>; createdAt: Date }
  endpoint: {
    id: string
    url: string
    secretCiphertext: string
    /** The rotated-out secret, while it still signs. */
    previousSecretCiphertext: string | null
    disabled: boolean
  }
}

interface DueRow {
  id: string
  attempts: number
  event_id: string
  type: string
  data: Record<string, unknown> | string
  event_created_at: string | Date
  endpoint_id: string
  url: string
  secret_ciphertext: string
  previous_secret_ciphertext: string | null
  disabled: boolean
}

/** Claims up to `batch` due deliveries for one attempt each, oldest due first. */
export async function claimDueDeliveries(db: Db, now: Clock, batch = 20): Promise<DueDelivery[]> {
  const rows = rowsOf<DueRow>(
    await db.execute(sql`
      with claimed as (
        update webhook_deliveries
           set next_attempt_at = ${at(now)} + make_interval(secs => ${LEASE_SECONDS}), attempts = attempts + 1
         where id in (
           select id from webhook_deliveries
            where status = 'pending' and next_attempt_at <= ${at(now)}
            order by next_attempt_at limit ${batch} for update skip locked)
        returning id, attempts, event_id, endpoint_id)
      select c.id, c.attempts, e.id as event_id, e.type, e.data, e.created_at as event_created_at,
             p.id as endpoint_id, p.url, p.secret_ciphertext,
             case when p.previous_secret_until > ${at(now)} then p.previous_secret_ciphertext end as previous_secret_ciphertext,
             p.disabled_at is not null as disabled
        from claimed c join webhook_events e on e.id = c.event_id join webhook_endpoints p on p.id = c.endpoint_id`),
  )
  return rows.map((row) => ({
    id: row.id,
    attempts: Number(row.attempts),
    event: {
      id: row.event_id,
      type: row.type,
      data: typeof row.data === 'string' ? JSON.parse(row.data) : row.data,
      createdAt: new Date(row.event_created_at),
    },
    endpoint: {
      id: row.endpoint_id,
      url: row.url,
      secretCiphertext: row.secret_ciphertext,
      previousSecretCiphertext: row.previous_secret_ciphertext,
      disabled: row.disabled,
    },
  }))
}

/** What one attempt came to, as the log keeps it. `final`: no retry, whatever happened (a disabled endpoint). */
export interface AttemptOutcome {
  durationMs: number
  status?: number
  body?: string
  error?: string
  final?: boolean
}

/**
 * Records an attempt and what follows from it, in one transaction: a 2xx delivers (and the endpoint is no
 * longer failing); anything else schedules the next retry, or fails the delivery past its three days, and
 * disables an endpoint that has failed for three days. Answers whether the endpoint was disabled just now.
 */
export async function recordAttempt(
  db: Db,
  delivery: DueDelivery,
  outcome: AttemptOutcome,
  now: Clock,
): Promise<{ delivered: boolean; disabledEndpoint: boolean }> {
  const delivered =
    outcome.error === undefined && outcome.status !== undefined && outcome.status >= 200 && outcome.status < 300
  return db.transaction(async (tx) => {
    await tx.execute(sql`
      insert into webhook_attempts (delivery_id, attempted_at, duration_ms, response_status, response_body, error, succeeded)
      values (${delivery.id}::uuid, ${at(now)}, ${outcome.durationMs}, ${outcome.status ?? null}, ${outcome.body ?? null},
        ${outcome.error ?? null}, ${delivered})`)
    if (delivered) {
      await tx.execute(sql`
        update webhook_deliveries set status = 'delivered', delivered_at = ${at(now)}, next_attempt_at = ${at(now)}
         where id = ${delivery.id}::uuid and status = 'pending'`)
      await tx.execute(sql`
        update webhook_endpoints set failing_since = null where id = ${delivery.endpoint.id}::uuid and failing_since is not null`)
      return { delivered, disabledEndpoint: false }
    }
    const delay = outcome.final ? 0 : retryDelaySeconds(delivery.attempts)
    await tx.execute(sql`
      update webhook_deliveries
         set next_attempt_at = ${at(now)} + make_interval(secs => ${delay}),
             status = case when ${outcome.final ?? false}
                 or ${at(now)} + make_interval(secs => ${delay}) > created_at + make_interval(secs => ${RETRY_FOR_SECONDS})
               then 'failed' else 'pending' end
       where id = ${delivery.id}::uuid and status = 'pending'`)
    if (outcome.final) return { delivered, disabledEndpoint: false }
    const disabled = rowsOf(
      await tx.execute(sql`
        update webhook_endpoints
           set failing_since = coalesce(failing_since, ${at(now)}),
               disabled_at = case when failing_since <= ${at(now)} - make_interval(secs => ${DISABLE_AFTER_SECONDS})
                 then ${at(now)} end,
               disabled_reason = case when failing_since <= ${at(now)} - make_interval(secs => ${DISABLE_AFTER_SECONDS})
                 then 'failing' end
         where id = ${delivery.endpoint.id}::uuid and disabled_at is null
        returning disabled_at is not null as disabled`),
    ) as Array<{ disabled: boolean }>
    return { delivered, disabledEndpoint: disabled[0]?.disabled === true }
  })
}

/** Drops events a month old whose deliveries are all done, with their deliveries and attempts (their log). */
export async function pruneWebhookEvents(db: Db, now: Clock): Promise<void> {
  await db.execute(sql`
    delete from webhook_events where id in (
      select e.id from webhook_events e
       where e.created_at < ${at(now)} - interval '30 days' and e.fanned_out_at is not null
         and not exists (select 1 from webhook_deliveries d where d.event_id = e.id and d.status = 'pending')
       limit 1000)`)
}
