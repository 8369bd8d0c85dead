/** `/v1/organization/webhooks`: the admin key's organisation's endpoints, through the session routes' functions. */
import { and, eq } from 'drizzle-orm'
import type { List } from '~/contracts/admin-api'
import type { CreateWebhookInput, UpdateWebhookInput, WebhookDelivery, WebhookEndpoint } from '~/contracts/webhooks'
import { webhookEndpoints } from '../../db/schema'
import { requireRole } from '../../domain/organisations'
import { WebhookNotFound } from '../../domain/refusals'
import { endpointsOf, organisationOwner } from '../../domain/webhook-owner'
import type { Caller } from '../caller'
import { replayWebhookDeliveryFor, webhookDeliveriesFor } from '../webhooks/deliveries'
import {
  createWebhookFor,
  deleteWebhookFor,
  listWebhooksFor,
  rotateWebhookSecretFor,
  updateWebhookFor,
  webhookFor,
  type WebhookAccess,
} from '../webhooks/endpoints'
import { adminOf } from './caller'
import { listPage } from './list'

/** The key's organisation only, judged by its maker's role there as their session would be. */
const adminAccess: WebhookAccess = {
  async scope(caller) {
    const { db, user, organisation } = await adminOf(caller)
    const { organisation: checked } = await requireRole(db, user.uid, organisation.id, 'webhooks.manage')
    return { db, uid: user.uid, owner: organisationOwner(checked) }
  },
  async endpoint(caller, id) {
    const { db, owner } = await adminAccess.scope(caller)
    const [endpoint] = await db
      .select()
      .from(webhookEndpoints)
      .where(and(eq(webhookEndpoints.id, id), endpointsOf(owner)))
    // Another organisation's endpoint reads as none.
    if (!endpoint) throw new WebhookNotFound()
    return { db, owner, endpoint }
  },
}

export async function adminWebhooksFor(
  caller: Caller,
  query: { after?: string; limit?: number },
): Promise<List<WebhookEndpoint>> {
  return listPage((await listWebhooksFor(caller, {}, adminAccess)).endpoints, query)
}

export const adminWebhookFor = (caller: Caller, id: string) => webhookFor(caller, id, adminAccess)

export const createAdminWebhookFor = (caller: Caller, input: Omit<CreateWebhookInput, 'organisation_id'>) =>
  createWebhookFor(caller, input, adminAccess)

export const updateAdminWebhookFor = (caller: Caller, id: string, input: UpdateWebhookInput) =>
  updateWebhookFor(caller, id, input, adminAccess)

export const deleteAdminWebhookFor = (caller: Caller, id: string) => deleteWebhookFor(caller, id, adminAccess)

export const rotateAdminWebhookSecretFor = (caller: Caller, id: string) =>
  rotateWebhookSecretFor(caller, id, adminAccess)

/** Newest first; one more is read than asked for, to say whether there are more. */
export async function adminWebhookDeliveriesFor(
  caller: Caller,
  id: string,
  query: { limit: number; status?: WebhookDelivery['status'] },
): Promise<List<WebhookDelivery>> {
  const { deliveries } = await webhookDeliveriesFor(caller, id, { ...query, limit: query.limit + 1 }, adminAccess)
  return listPage(deliveries, { limit: query.limit })
}

export const replayAdminWebhookDeliveryFor = (caller: Caller, id: string, deliveryId: string) =>
  replayWebhookDeliveryFor(caller, id, deliveryId, adminAccess)
