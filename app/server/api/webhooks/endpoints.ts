import * as v from 'valibot'
import {
  webhookIdParam,
  type CreateWebhookInput,
  type UpdateWebhookInput,
  type WebhookEndpoint,
} from '~/contracts/webhooks'
import type { Db } from '../../db/types'
import { WebhookNotFound } from '../../domain/refusals'
import {
  createEndpoint,
  deleteEndpoint,
  endpointAnswer,
  listEndpoints,
  rotateSecret,
  updateEndpoint,
  type WebhookEndpointRow,
} from '../../domain/webhook-endpoints'
import { organisationOwner, type WebhookOwner } from '../../domain/webhook-owner'
import { ensurePersonalOrganisation, membershipOf, requireRole } from '../../domain/organisations'
import { refuseUnless } from '../../domain/organisation-roles'
import { webhookEndpoints } from '../../db/schema'
import { eq } from 'drizzle-orm'
import { serverEnv } from '../../env'
import { sealKey } from '../../providers/identity/key-crypto'
import { checkedWebhookAddress } from '../../providers/webhooks/address'
import { newWebhookSecret } from '../../providers/webhooks/signature'
import { accountOf } from '../account/session'
import { auditBy } from '../audit/actor'
import type { Caller } from '../caller'

/** The secret is sealed bound to its endpoint, so a sealed value moved onto another row does not open. */
export const secretBinding = (endpointId: string) => `webhook:${endpointId}`

/** A path id that is not a uuid names no endpoint: 404, as another owner's does. */
export function parseWebhookId(params: Record<string, string>): string {
  const parsed = v.safeParse(webhookIdParam, params.webhookId)
  if (!parsed.success) throw new WebhookNotFound()
  return parsed.output
}

/**
 * The endpoints the signed-in account manages: those of `organisationId` (its personal organisation if none is
 * named), refused unless its role there allows `webhooks.manage` (404 outside the organisation, 403 within).
 */
export async function webhookOwnerOf(
  caller: Caller,
  organisationId?: string,
): Promise<{ db: Db; uid: string; owner: WebhookOwner }> {
  const { db, user } = await accountOf(caller)
  const id = organisationId ?? (await ensurePersonalOrganisation(db, user.uid))
  const { organisation } = await requireRole(db, user.uid, id, 'webhooks.manage')
  return { db, uid: user.uid, owner: organisationOwner(organisation) }
}

/**
 * One endpoint the caller manages, whichever organisation it belongs to (one made before organisations, by the
 * account, is its personal organisation's). Someone outside that organisation reads 404, as for no endpoint.
 */
export async function callerEndpoint(
  caller: Caller,
  id: string,
): Promise<{ db: Db; owner: WebhookOwner; endpoint: WebhookEndpointRow }> {
  const { db, user } = await accountOf(caller)
  const [row] = await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id))
  const organisationId =
    row?.organisationId ??
    (row?.ownerAccountId === user.uid ? await ensurePersonalOrganisation(db, user.uid) : undefined)
  const membership = organisationId ? await membershipOf(db, user.uid, organisationId) : undefined
  if (!row || !membership) throw new WebhookNotFound()
  refuseUnless(membership.role, 'webhooks.manage')
  return { db, owner: organisationOwner(membership.organisation), endpoint: row }
}

/**
 * How a caller reaches endpoints: a session through its memberships (these defaults), an admin key through its
 * organisation (api/admin/webhooks.ts). Every action below is the same for both.
 */
export interface WebhookAccess {
  scope(caller: Caller, organisationId?: string): Promise<{ db: Db; uid: string; owner: WebhookOwner }>
  endpoint(caller: Caller, id: string): Promise<{ db: Db; owner: WebhookOwner; endpoint: WebhookEndpointRow }>
}

export const sessionAccess: WebhookAccess = { scope: webhookOwnerOf, endpoint: callerEndpoint }

async function sealedNewSecret(endpointId: string): Promise<{ secret: string; secretCiphertext: string }> {
  const secret = newWebhookSecret()
  return { secret, secretCiphertext: await sealKey(serverEnv(), secretBinding(endpointId), secret) }
}

export async function listWebhooksFor(
  caller: Caller,
  query: { organisation_id?: string } = {},
  access = sessionAccess,
): Promise<{ endpoints: WebhookEndpoint[] }> {
  const { db, owner } = await access.scope(caller, query.organisation_id)
  return { endpoints: (await listEndpoints(db, owner)).map(endpointAnswer) }
}

export async function webhookFor(caller: Caller, id: string, access = sessionAccess): Promise<WebhookEndpoint> {
  return endpointAnswer((await access.endpoint(caller, id)).endpoint)
}

/** A new endpoint, its address checked as every delivery's will be; its secret is answered here only. */
export async function createWebhookFor(
  caller: Caller,
  input: CreateWebhookInput,
  access = sessionAccess,
): Promise<WebhookEndpoint & { secret: string }> {
  const { db, uid, owner } = await access.scope(caller, input.organisation_id)
  await checkedWebhookAddress(new URL(input.url), serverEnv())
  const id = crypto.randomUUID()
  const { secret, secretCiphertext } = await sealedNewSecret(id)
  const row = await createEndpoint(db, auditBy(caller), owner, uid, {
    id,
    url: input.url,
    events: input.events,
    description: input.description ?? null,
    secretCiphertext,
  })
  return { ...endpointAnswer(row), secret }
}

export async function updateWebhookFor(
  caller: Caller,
  id: string,
  input: UpdateWebhookInput,
  access = sessionAccess,
): Promise<WebhookEndpoint> {
  const { db, owner } = await access.endpoint(caller, id)
  if (input.url !== undefined) {
    await checkedWebhookAddress(new URL(input.url), serverEnv())
  }
  return endpointAnswer(await updateEndpoint(db, auditBy(caller), owner, id, input))
}

export async function deleteWebhookFor(
  caller: Caller,
  id: string,
  access = sessionAccess,
): Promise<{ detail: string }> {
  const { db, owner } = await access.endpoint(caller, id)
  await deleteEndpoint(db, auditBy(caller), owner, id)
  return { detail: 'Webhook endpoint deleted' }
}

/** A new secret, answered once; the previous one keeps signing beside it for 24 hours. */
export async function rotateWebhookSecretFor(
  caller: Caller,
  id: string,
  access = sessionAccess,
): Promise<WebhookEndpoint & { secret: string }> {
  const { db, owner } = await access.endpoint(caller, id)
  const { secret, secretCiphertext } = await sealedNewSecret(id)
  const row = await rotateSecret(db, auditBy(caller), owner, id, secretCiphertext)
  return { ...endpointAnswer(row), secret }
}
