import { randomUUID } from 'node:crypto'
import { and, asc, desc, eq, isNull, sql } from 'drizzle-orm'
import type { Organisation, OrganisationRole } from '~/contracts/organisations'
import { rowsOf } from '../db/rows'
import { apiKeys, memberships, organisations } from '../db/schema'
import type { Db, Tx } from '../db/types'
import { recordAudit, type AuditBy } from './audit'
import { can, refuseUnless, type OrganisationAction } from './organisation-roles'
import { OrganisationNotFound, OrganisationRefused } from './refusals'

export type OrganisationRow = typeof organisations.$inferSelect

/** The name a personal organisation is made with (the dashboard shows it in the reader's language). */
export const PERSONAL_NAME = 'Personal'

/**
 * The account's personal organisation, made (with the account as its owner) if it has none: at sign-up and
 * every sign-in, so an account made by an older release gets one too. The partial unique index keeps it to one
 * however many sign-ins race. Returns its id.
 */
export async function ensurePersonalOrganisation(db: Db | Tx, uid: string): Promise<string> {
  await db.execute(sql`
    with made as (
      insert into organisations (name, personal, created_by) values (${PERSONAL_NAME}, true, ${uid})
      on conflict (created_by) where personal do nothing returning id
    )
    insert into memberships (organisation_id, uid, role) select id, ${uid}, 'owner' from made
    on conflict do nothing`)
  const [row] = await db
    .select({ id: organisations.id })
    .from(organisations)
    .where(and(eq(organisations.createdBy, uid), eq(organisations.personal, true)))
  return row.id
}

/**
 * A new organisation with a shared balance, its maker its owner. The balance is an `api_keys` row that no
 * presented key can ever match (its hash is not a SHA-256 of anything: `balance:<uuid>`), owned by no account
 * and in no organisation's key list, so the ledger, purchases, cards, auto-recharge and invoices work on it as
 * on a key's own balance.
 */
export async function createOrganisation(db: Db, by: AuditBy, uid: string, name: string): Promise<OrganisationRow> {
  return db.transaction(async (tx) => {
    const [organisation] = await tx.insert(organisations).values({ name, createdBy: uid }).returning()
    const [balance] = await tx
      .insert(apiKeys)
      .values({ keyHash: `balance:${randomUUID()}`, prefix: 'org', last4: organisation.id.slice(-4) })
      .returning({ id: apiKeys.id })
    const [row] = await tx
      .update(organisations)
      .set({ balanceKeyId: balance.id })
      .where(eq(organisations.id, organisation.id))
      .returning()
    await tx.insert(memberships).values({ organisationId: organisation.id, uid, role: 'owner' })
    await recordAudit(tx, by, {
      action: 'organisation.created',
      accountId: uid,
      details: { organisation_id: organisation.id, name },
    })
    return row
  })
}

export interface Membership {
  organisation: OrganisationRow
  role: OrganisationRole
}

/** The caller's membership of a live organisation, if any. */
export async function membershipOf(db: Db | Tx, uid: string, organisationId: string): Promise<Membership | undefined> {
  const [row] = await db
    .select({ organisation: organisations, role: memberships.role })
    .from(memberships)
    .innerJoin(organisations, eq(organisations.id, memberships.organisationId))
    .where(
      and(eq(memberships.uid, uid), eq(memberships.organisationId, organisationId), isNull(organisations.deletedAt)),
    )
  return row
}

/**
 * The caller's membership, refused unless its role may do `action`: 404 for someone not in the organisation
 * (whether it exists is not theirs to know), 403 for a member whose role does not allow it.
 */
export async function requireRole(
  db: Db | Tx,
  uid: string,
  organisationId: string,
  action: OrganisationAction,
): Promise<Membership> {
  const membership = await membershipOf(db, uid, organisationId)
  if (!membership) throw new OrganisationNotFound()
  refuseUnless(membership.role, action)
  return membership
}

/** The organisations the account is in, personal first, then oldest first, with its role and (if it may see it) the balance. */
export async function organisationsOf(db: Db, uid: string): Promise<Organisation[]> {
  const rows = await db
    .select({ organisation: organisations, role: memberships.role, balance: apiKeys.balance })
    .from(memberships)
    .innerJoin(organisations, eq(organisations.id, memberships.organisationId))
    .leftJoin(apiKeys, eq(apiKeys.id, organisations.balanceKeyId))
    .where(and(eq(memberships.uid, uid), isNull(organisations.deletedAt)))
    .orderBy(desc(organisations.personal), asc(organisations.createdAt))
  return rows.map(({ organisation, role, balance }) => organisationAnswer(organisation, role, balance))
}

export function organisationAnswer(row: OrganisationRow, role: OrganisationRole, balance: number | null): Organisation {
  return {
    id: row.id,
    name: row.name,
    personal: row.personal,
    role,
    balance: balance !== null && can(role, 'balance.read') ? balance : null,
    created_at: row.createdAt.toISOString(),
  }
}

/** The shared balance of the organisation, as the ledger holds it (null for a personal organisation). */
export async function balanceOf(db: Db | Tx, row: OrganisationRow): Promise<number | null> {
  if (!row.balanceKeyId) return null
  const [key] = await db.select({ balance: apiKeys.balance }).from(apiKeys).where(eq(apiKeys.id, row.balanceKeyId))
  return key?.balance ?? 0
}

export async function renameOrganisation(
  db: Db,
  by: AuditBy,
  uid: string,
  organisationId: string,
  name: string,
): Promise<Organisation> {
  return db.transaction(async (tx) => {
    const { role } = await requireRole(tx, uid, organisationId, 'organisation.rename')
    const [row] = await tx.update(organisations).set({ name }).where(eq(organisations.id, organisationId)).returning()
    await recordAudit(tx, by, {
      action: 'organisation.renamed',
      accountId: uid,
      details: { organisation_id: organisationId, name },
    })
    return organisationAnswer(row, role, await balanceOf(tx, row))
  })
}

/**
 * Deletes an organisation made by hand (a personal one stays while its account does): it leaves every list,
 * its keys are revoked and its invitations end, in one transaction; its ledger, purchases and invoices stay as
 * history, and a balance left on it stays frozen there.
 */
export async function deleteOrganisation(db: Db, by: AuditBy, uid: string, organisationId: string): Promise<void> {
  await db.transaction(async (tx) => {
    const { organisation } = await requireRole(tx, uid, organisationId, 'organisation.delete')
    if (organisation.personal) throw new OrganisationRefused('A personal organisation cannot be deleted')
    await tx
      .update(organisations)
      .set({ deletedAt: sql`now()` })
      .where(eq(organisations.id, organisationId))
    const revoked = rowsOf<{ id: string }>(
      await tx.execute(sql`update api_keys set revoked_at = now()
        where organisation_id = ${organisationId}::uuid and revoked_at is null returning id`),
    )
    await tx.execute(sql`update invitations set revoked_at = now()
      where organisation_id = ${organisationId}::uuid and accepted_at is null and revoked_at is null`)
    for (const { id } of revoked)
      await recordAudit(tx, by, { action: 'key.revoked', keyId: id, details: { by: 'organisation_deleted' } })
    await recordAudit(tx, by, {
      action: 'organisation.deleted',
      accountId: uid,
      details: { organisation_id: organisationId },
    })
  })
}
