import { getDb } from '../../db/client'
import type { Db } from '../../db/types'
import { webhookPayload } from '../../domain/webhook-deliveries'
import {
  claimDueDeliveries,
  fanOutEvents,
  pruneWebhookEvents,
  recordAttempt,
  type AttemptOutcome,
  type Clock,
  type DueDelivery,
} from '../../domain/webhook-outbox'
import { serverEnv } from '../../env'
import { onShutdown } from '../../lifecycle'
import { errorFields, log } from '../../log'
import { runtime } from '../../runtime'
import { openKey } from '../../providers/identity/key-crypto'
import { checkedWebhookAddress } from '../../providers/webhooks/address'
import { postWebhook } from '../../providers/webhooks/post'
import { webhookHeaders } from '../../providers/webhooks/signature'
import { secretBinding } from './endpoints'

/** How long a receiver has to answer one attempt. */
export const WEBHOOK_TIMEOUT_MS = 10_000

export interface WebhookRunOptions {
  /** Stands for the database's clock (tests run the retries due hours from now). */
  now?: Clock
  timeoutMs?: number
}

/** One attempt: the address checked again (DNS rebinding), signed with every secret that still signs, sent. */
async function attempt(delivery: DueDelivery, timeoutMs: number): Promise<AttemptOutcome> {
  if (delivery.endpoint.disabled) return { durationMs: 0, error: 'The endpoint is disabled', final: true }
  const env = serverEnv()
  const url = new URL(delivery.endpoint.url)
  let address
  try {
    address = await checkedWebhookAddress(url, env)
  } catch (error) {
    return { durationMs: 0, error: (error as Error).message }
  }
  const binding = secretBinding(delivery.endpoint.id)
  let secrets: string[]
  try {
    secrets = await Promise.all(
      [delivery.endpoint.secretCiphertext, delivery.endpoint.previousSecretCiphertext]
        .filter((sealed): sealed is string => sealed !== null)
        .map((sealed) => openKey(env, binding, sealed)),
    )
  } catch {
    return { durationMs: 0, error: 'The signing secret no longer opens (KEY_ENCRYPTION_SECRET changed): rotate it' }
  }
  const body = JSON.stringify(webhookPayload(delivery.event))
  const outcome = await postWebhook(
    url,
    address,
    await webhookHeaders(secrets, delivery.event.id, body),
    body,
    timeoutMs,
  )
  return 'error' in outcome
    ? { durationMs: outcome.durationMs, error: outcome.error }
    : { durationMs: outcome.durationMs, status: outcome.status, body: outcome.body }
}

/**
 * Fans out the events waiting and makes every attempt due, until none is left: the work of one pass. Attempts
 * of a batch go out together (one slow receiver holds its batch at most the timeout).
 */
export async function runWebhooks(
  db: Db,
  options: WebhookRunOptions = {},
): Promise<{ delivered: number; failed: number }> {
  const { now, timeoutMs = WEBHOOK_TIMEOUT_MS } = options
  let delivered = 0
  let failed = 0
  let fanned: number
  do fanned = await fanOutEvents(db, now)
  while (fanned > 0)
  for (;;) {
    const due = await claimDueDeliveries(db, now)
    if (due.length === 0) return { delivered, failed }
    await Promise.all(
      due.map(async (delivery) => {
        try {
          const outcome = await attempt(delivery, timeoutMs)
          const recorded = await recordAttempt(db, delivery, outcome, now)
          if (recorded.delivered) delivered++
          else failed++
          if (!recorded.delivered)
            log('info', 'webhook attempt failed', {
              delivery_id: delivery.id,
              endpoint_id: delivery.endpoint.id,
              attempt: delivery.attempts,
              status: outcome.status,
              error: outcome.error,
            })
          if (recorded.disabledEndpoint)
            log('warn', 'webhook endpoint disabled after three days of failures', { endpoint_id: delivery.endpoint.id })
        } catch (error) {
          // Its lease runs out and the delivery is tried again (an endpoint deleted meanwhile took it along).
          log('error', 'webhook attempt not recorded', { delivery_id: delivery.id, error: errorFields(error) })
        }
      }),
    )
  }
}

let running: Promise<unknown> | undefined
let again = false
let timer: ReturnType<typeof setInterval> | undefined
let prunedAt = 0

/** Runs a pass in the background now; calls while one runs fold into one more pass. */
export function kickWebhooks(): void {
  // An edge build only writes events: the Node instances' workers on the same database deliver them.
  if (runtime === 'edge') return
  if (running) {
    again = true
    return
  }
  running = (async () => {
    try {
      const db = await getDb()
      do {
        again = false
        await runWebhooks(db)
      } while (again)
      if (Date.now() - prunedAt > 3_600_000) {
        prunedAt = Date.now()
        await pruneWebhookEvents(db, undefined)
      }
    } catch (error) {
      log('error', 'webhook pass failed', { error: errorFields(error) })
    } finally {
      running = undefined
    }
  })()
}

/** The server's periodic pass: events other instances (and the edge) wrote, and retries coming due. */
export function startWebhookWorker(intervalMs = 1000): void {
  if (timer) return
  timer = setInterval(kickWebhooks, intervalMs)
  timer.unref?.()
  onShutdown(stopWebhookWorker)
  kickWebhooks()
}

export async function stopWebhookWorker(): Promise<void> {
  if (timer) clearInterval(timer)
  timer = undefined
  await webhooksIdle()
}

export function webhooksIdle(): Promise<unknown> {
  return running ?? Promise.resolve()
}
