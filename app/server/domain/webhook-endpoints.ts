import { and, asc, eq, sql } from 'drizzle-orm'
import {
  MAX_WEBHOOK_ENDPOINTS,
  type UpdateWebhookInput,
  type WebhookEndpoint,
  type WebhookEventType,
} from '~/contracts/webhooks'
import { organisations, users, webhookEndpoints } from '../db/schema'
import type { Db, Tx } from '../db/types'
import { recordAudit, type AuditBy } from './audit'
import { WebhookNotFound, WebhookState } from './refusals'
import { endpointsOf, type WebhookOwner } from './webhook-owner'
import { at, type Clock } from './webhook-outbox'

export type WebhookEndpointRow = typeof webhookEndpoints.$inferSelect

/** A rotated-out secret keeps signing for this long, so receivers can move to the new one. */
export const PREVIOUS_SECRET_HOURS = 24

export function endpointAnswer(row: WebhookEndpointRow): WebhookEndpoint {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    events: row.events as WebhookEventType[],
    disabled: row.disabledAt !== null,
    disabled_reason: row.disabledAt ? (row.disabledReason ?? 'owner') : null,
    failing_since: row.failingSince?.toISOString() ?? null,
    previous_secret_until:
      row.previousSecretUntil && row.previousSecretUntil > new Date() ? row.previousSecretUntil.toISOString() : null,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  }
}

const whose = (owner: WebhookOwner) => endpointsOf(owner) ?? sql`false`
/** The account's name for what an audit row shows of an endpoint: its id and host, never its path or query. */
const audited = (row: Pick<WebhookEndpointRow, 'id' | 'url'>) => ({ endpoint_id: row.id, host: new URL(row.url).host })

export async function listEndpoints(db: Db, owner: WebhookOwner): Promise<WebhookEndpointRow[]> {
  return db.select().from(webhookEndpoints).where(whose(owner)).orderBy(asc(webhookEndpoints.createdAt))
}

/** One of the owner's endpoints; another owner's, or none, reads the same. */
export async function ownedEndpoint(db: Db | Tx, owner: WebhookOwner, id: string): Promise<WebhookEndpointRow> {
  const [row] = await db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, id), whose(owner)))
  if (!row) throw new WebhookNotFound()
  return row
}

export interface NewEndpoint {
  id: string
  url: string
  events: WebhookEventType[]
  description: string | null
  secretCiphertext: string
}

/**
 * Adds an endpoint to the owner (made by the account `createdBy`), at most MAX_WEBHOOK_ENDPOINTS, counted under
 * the organisation row's lock (the account's, for an account without organisation).
 */
export async function createEndpoint(
  db: Db,
  by: AuditBy,
  owner: WebhookOwner,
  createdBy: string,
  endpoint: NewEndpoint,
): Promise<WebhookEndpointRow> {
  return db.transaction(async (tx) => {
    if (owner.organisationId)
      await tx
        .select({ id: organisations.id })
        .from(organisations)
        .where(eq(organisations.id, owner.organisationId))
        .for('update')
    else await tx.select({ uid: users.uid }).from(users).where(eq(users.uid, createdBy)).for('update')
    const [{ count }] = await tx
      .select({ count: sql<number>`count(*)::int` })
      .from(webhookEndpoints)
      .where(whose(owner))
    if (Number(count) >= MAX_WEBHOOK_ENDPOINTS)
      throw new WebhookState(`An organisation has at most ${MAX_WEBHOOK_ENDPOINTS} webhook endpoints`)
    const [row] = await tx
      .insert(webhookEndpoints)
      .values({ ...endpoint, ownerAccountId: createdBy, organisationId: owner.organisationId })
      .returning()
    await recordAudit(tx, by, { action: 'webhook.created', accountId: createdBy, details: audited(row) })
    return row
  })
}

export async function updateEndpoint(
  db: Db,
  by: AuditBy,
  owner: WebhookOwner,
  id: string,
  changes: UpdateWebhookInput,
): Promise<WebhookEndpointRow> {
  return db.transaction(async (tx) => {
    const current = await ownedEndpoint(tx, owner, id)
    const disabling =
      changes.disabled === undefined
        ? {}
        : changes.disabled
          ? current.disabledAt
            ? {}
            : { disabledAt: sql`now()`, disabledReason: 'owner' as const }
          : // Enabled again: a fresh start, whatever had failed before.
            { disabledAt: null, disabledReason: null, failingSince: null }
    const [row] = await tx
      .update(webhookEndpoints)
      .set({
        ...(changes.url !== undefined && { url: changes.url }),
        ...(changes.events !== undefined && { events: changes.events }),
        ...(changes.description !== undefined && { description: changes.description }),
        ...disabling,
        updatedAt: sql`now()`,
      })
      .where(eq(webhookEndpoints.id, current.id))
      .returning()
    await recordAudit(tx, by, {
      action: 'webhook.changed',
      accountId: current.ownerAccountId,
      details: { ...audited(row), fields: Object.keys(changes).sort().join(',') },
    })
    return row
  })
}

export async function deleteEndpoint(db: Db, by: AuditBy, owner: WebhookOwner, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    const current = await ownedEndpoint(tx, owner, id)
    await tx.delete(webhookEndpoints).where(eq(webhookEndpoints.id, current.id))
    await recordAudit(tx, by, {
      action: 'webhook.deleted',
      accountId: current.ownerAccountId,
      details: audited(current),
    })
  })
}

/**
 * A new secret; the current one becomes the previous, which signs beside it for PREVIOUS_SECRET_HOURS (a
 * secret rotated out before, still signing, stops at once: two secrets at most).
 */
export async function rotateSecret(
  db: Db,
  by: AuditBy,
  owner: WebhookOwner,
  id: string,
  secretCiphertext: string,
  now?: Clock,
): Promise<WebhookEndpointRow> {
  return db.transaction(async (tx) => {
    const current = await ownedEndpoint(tx, owner, id)
    const [row] = await tx
      .update(webhookEndpoints)
      .set({
        secretCiphertext,
        previousSecretCiphertext: current.secretCiphertext,
        previousSecretUntil: sql`${at(now)} + make_interval(hours => ${PREVIOUS_SECRET_HOURS})`,
        updatedAt: sql`now()`,
      })
      .where(eq(webhookEndpoints.id, current.id))
      .returning()
    await recordAudit(tx, by, {
      action: 'webhook.secret_rotated',
      accountId: current.ownerAccountId,
      details: audited(row),
    })
    return row
  })
}
