import { sql } from 'drizzle-orm'
import { getDb } from '../db/client'
import { rowsOf } from '../db/rows'
import type { Db } from '../db/types'
import { onShutdown } from '../lifecycle'
import { errorFields, log } from '../log'
import { runtime } from '../runtime'
import { createMailer } from './mailer'
import type { Mailer, OutgoingMail } from './mail-types'

export { createMailer }
export type { Mailer, OutgoingMail }

const LEASE = sql`interval '5 minutes'`
const MAX_ATTEMPTS = 8

/**
 * Sends unsent outbox rows. Each batch is claimed with a lease (SKIP LOCKED, then `next_attempt_at` in the
 * future) and sent outside any transaction, so instances never send the same row concurrently and a slow
 * SMTP server never holds a database lock. A crash mid-send retries after the lease: at-least-once.
 */
export async function drainOutbox(db: Db, mailer: Mailer, batch = 20): Promise<{ sent: number; failed: number }> {
  let sent = 0
  let failed = 0
  for (;;) {
    const claimed = rowsOf<OutgoingMail & { attempts: number }>(
      await db.execute(sql`
        update email_outbox set next_attempt_at = now() + ${LEASE}, attempts = attempts + 1
        where id in (
          select id from email_outbox
          where sent_at is null and next_attempt_at <= now() and attempts < ${MAX_ATTEMPTS}
          order by created_at limit ${batch} for update skip locked)
        returning id, "to", subject, text, kind, attempts`),
    )
    for (const mail of claimed) {
      try {
        await mailer.send(mail)
        await db.execute(sql`update email_outbox set sent_at = now(), last_error = null where id = ${mail.id}::uuid`)
        sent++
      } catch (error) {
        failed++
        const backoffSeconds = Math.min(3600, 30 * 2 ** (mail.attempts - 1))
        await db.execute(sql`
          update email_outbox set last_error = ${String((error as Error)?.message ?? error).slice(0, 500)},
            next_attempt_at = now() + make_interval(secs => ${backoffSeconds})
          where id = ${mail.id}::uuid`)
        log('warn', 'outbox send failed', {
          mail_id: mail.id,
          kind: mail.kind,
          attempt: mail.attempts,
          error: errorFields(error),
        })
      }
    }
    if (claimed.length < batch) return { sent, failed }
  }
}

let running: Promise<unknown> | undefined
let again = false
let mailer: Promise<Mailer> | undefined
let timer: ReturnType<typeof setInterval> | undefined

/** Drains in the background after a commit that queued mail; calls while a drain runs fold into one more pass. */
export function kickOutbox(): void {
  // An edge build only queues mail: the outbox workers of the Node instances on the same database send it.
  if (runtime === 'edge') return
  // A drain kicked (by a commit that queued mail) finishes before the connections it uses close.
  onShutdown(drainFinished)
  if (running) {
    again = true
    return
  }
  running = (async () => {
    try {
      mailer ??= createMailer()
      do {
        again = false
        await drainOutbox(await getDb(), await mailer)
      } while (again)
    } catch (error) {
      log('error', 'outbox drain failed', { error: errorFields(error) })
    } finally {
      running = undefined
    }
  })()
}

/** The server's periodic drain, for retries and for mail other instances queued. */
export function startOutboxWorker(intervalMs = 30_000): void {
  if (timer) return
  timer = setInterval(kickOutbox, intervalMs)
  timer.unref?.()
  onShutdown(stopOutboxWorker)
  kickOutbox()
}

/** Tests switch mailer configuration between files. */
export function resetOutboxWorker(): void {
  if (timer) clearInterval(timer)
  timer = undefined
  mailer = undefined
}

/** A stopping server: no more periodic drains; resolves once the drain under way (if any) has finished. */
export async function stopOutboxWorker(): Promise<void> {
  if (timer) clearInterval(timer)
  timer = undefined
  await outboxIdle()
}

const drainFinished = async () => {
  await outboxIdle()
}

export function outboxIdle(): Promise<unknown> {
  return running ?? Promise.resolve()
}
