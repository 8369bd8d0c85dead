import { and, eq, isNull, or, type SQL } from 'drizzle-orm'
import { apiKeys, organisations, webhookEndpoints } from '../db/schema'
import type { Db, Tx } from '../db/types'

/**
 * Whose endpoints an event goes to: an organisation's. `accountId` is set only for a personal organisation (its
 * account): endpoints made before organisations existed belong to that account with no organisation, and stay
 * its personal organisation's.
 */
export interface WebhookOwner {
  accountId: string | null
  organisationId: string | null
}

/** The owner of a personal organisation's endpoints, or of another organisation's. */
export function organisationOwner(organisation: {
  id: string
  personal: boolean
  createdBy: string | null
}): WebhookOwner {
  return { accountId: organisation.personal ? organisation.createdBy : null, organisationId: organisation.id }
}

/**
 * The owner of an event about a key: the key's organisation (docs/organisations.md: a key with an owner and no
 * organisation is in its owner's personal organisation). An anonymous key has neither, and its events go
 * nowhere. The one place that decides it: every key event follows.
 */
export async function webhookOwnerOfKey(db: Db | Tx, keyId: string): Promise<WebhookOwner> {
  const [key] = await db
    .select({ ownerId: apiKeys.ownerId, organisationId: apiKeys.organisationId })
    .from(apiKeys)
    .where(eq(apiKeys.id, keyId))
  if (!key) return { accountId: null, organisationId: null }
  const [organisation] = key.organisationId
    ? await db.select().from(organisations).where(eq(organisations.id, key.organisationId))
    : key.ownerId
      ? await db
          .select()
          .from(organisations)
          .where(and(eq(organisations.createdBy, key.ownerId), eq(organisations.personal, true)))
      : []
  if (organisation) return organisationOwner(organisation)
  // An account key whose account never signed in since organisations came: its account's endpoints.
  return { accountId: key.ownerId, organisationId: null }
}

/** The endpoints that belong to `owner`: the organisation's, and for a personal one its account's older ones. */
export function endpointsOf(owner: WebhookOwner): SQL | undefined {
  const accounts = owner.accountId
    ? and(eq(webhookEndpoints.ownerAccountId, owner.accountId), isNull(webhookEndpoints.organisationId))
    : undefined
  if (owner.organisationId) return or(eq(webhookEndpoints.organisationId, owner.organisationId), accounts)
  return accounts
}
