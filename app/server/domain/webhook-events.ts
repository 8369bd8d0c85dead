import type { WebhookEventType } from '~/contracts/webhooks'
import { webhookEvents } from '../db/schema'
import type { Db, Tx } from '../db/types'

/**
 * Emitting a webhook event is one insert into the event outbox (`webhook_events`), made with the transaction of
 * the change it tells of, so the event exists exactly when the change committed. Nothing here knows endpoints:
 * the worker fans each event out to its owner's endpoints afterwards (./webhook-outbox.ts), resolving the owner
 * of a key's event there (./webhook-owner.ts). `balance.low` is written by a trigger beside the alert's mail
 * (db/functions/webhooks.sql). Data holds ids and amounts, never a key or a secret.
 */
export interface WebhookEventInput {
  type: WebhookEventType
  data: Record<string, unknown>
  /** The key the event is about: its owner is whose endpoints get it. */
  keyId?: string
  /** Or the owner itself, for events about no key. */
  accountId?: string
  organisationId?: string
}

export async function emitWebhookEvent(db: Db | Tx, event: WebhookEventInput): Promise<void> {
  await db.insert(webhookEvents).values({
    type: event.type,
    data: event.data,
    keyId: event.keyId ?? null,
    ownerAccountId: event.accountId ?? null,
    organisationId: event.organisationId ?? null,
  })
}

/** `key.created` and `key.revoked`, in the transaction that created or revoked the key. */
export function emitKeyEvent(
  db: Db | Tx,
  type: 'key.created' | 'key.revoked',
  key: { id: string; name: string | null; display: string },
): Promise<void> {
  return emitWebhookEvent(db, {
    type,
    keyId: key.id,
    data: { key_id: key.id, name: key.name, key_display: key.display },
  })
}

/** `payment.succeeded`, in the transaction that credits the purchase (once per purchase). */
export function emitPaymentSucceeded(
  db: Db | Tx,
  purchase: { id: string; keyId: string; kind: string; tokens: number; amount: number; currency: string },
): Promise<void> {
  return emitWebhookEvent(db, {
    type: 'payment.succeeded',
    keyId: purchase.keyId,
    data: {
      purchase_id: purchase.id,
      key_id: purchase.keyId,
      kind: purchase.kind,
      tokens: purchase.tokens,
      amount: purchase.amount,
      currency: purchase.currency,
    },
  })
}

/** `bulk_job.completed` or `batch.completed`, in the transaction that ends the job as completed. */
export function emitJobCompleted(
  db: Db | Tx,
  job: {
    id: string
    keyId: string
    kind: 'embeddings' | 'batch'
    model: string
    totalRows: number
    processedRows: number
  },
): Promise<void> {
  if (job.kind === 'batch')
    return emitWebhookEvent(db, {
      type: 'batch.completed',
      keyId: job.keyId,
      // The batch's id as /v1/batches answers it (batchIdOf in ./batches.ts, which imports the job code that calls this).
      data: { batch_id: `batch_${job.id.replace(/-/g, '')}`, key_id: job.keyId },
    })
  return emitWebhookEvent(db, {
    type: 'bulk_job.completed',
    keyId: job.keyId,
    data: {
      job_id: job.id,
      key_id: job.keyId,
      model: job.model,
      total_rows: job.totalRows,
      processed_rows: job.processedRows,
    },
  })
}

/**
 * `limit.reached`: for the branch that enforces spending limits to call in the transaction that found a key's
 * limit reached (once per limit and period, which that code decides). `details` names the limit, e.g.
 * `{ period: 'month', limit_tokens: 1000000 }`; it is sent as is beside `key_id`.
 */
export function emitLimitReached(
  db: Db | Tx,
  keyId: string,
  details: Record<string, string | number | boolean | null>,
): Promise<void> {
  return emitWebhookEvent(db, { type: 'limit.reached', keyId, data: { ...details, key_id: keyId } })
}

/**
 * `member.joined`: for organisations to call in the transaction that adds the member. It goes to the
 * organisation's endpoints; `details` (e.g. `{ role: 'member' }`) is sent beside the two ids.
 */
export function emitMemberJoined(
  db: Db | Tx,
  member: { organisationId: string; accountId: string },
  details: Record<string, string | number | boolean | null> = {},
): Promise<void> {
  return emitWebhookEvent(db, {
    type: 'member.joined',
    organisationId: member.organisationId,
    data: { ...details, organisation_id: member.organisationId, account_id: member.accountId },
  })
}
