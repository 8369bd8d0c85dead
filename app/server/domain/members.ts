import { and, asc, eq, or } from 'drizzle-orm'
import type { Member, OrganisationRole } from '~/contracts/organisations'
import { memberships, users } from '../db/schema'
import type { Db, Tx } from '../db/types'
import { recordAudit, type AuditBy } from './audit'
import { refuseUnless } from './organisation-roles'
import { requireRole } from './organisations'
import { OrganisationItemNotFound, OrganisationRefused } from './refusals'

export async function membersOf(db: Db, uid: string, organisationId: string): Promise<Member[]> {
  await requireRole(db, uid, organisationId, 'members.read')
  const rows = await db
    .select({ membership: memberships, email: users.email, displayName: users.displayName })
    .from(memberships)
    .innerJoin(users, eq(users.uid, memberships.uid))
    .where(eq(memberships.organisationId, organisationId))
    .orderBy(asc(memberships.createdAt), asc(memberships.uid))
  return rows.map(({ membership, email, displayName }) => ({
    uid: membership.uid,
    email,
    display_name: displayName,
    role: membership.role,
    joined_at: membership.createdAt.toISOString(),
  }))
}

/**
 * The member's row, locked with every owner's of the organisation: role changes and removals are decided
 * under them, so two owners demoting each other at once cannot leave the organisation without one.
 */
async function lockedMember(tx: Tx, organisationId: string, memberUid: string) {
  const rows = await tx
    .select()
    .from(memberships)
    .where(
      and(
        eq(memberships.organisationId, organisationId),
        or(eq(memberships.uid, memberUid), eq(memberships.role, 'owner')),
      ),
    )
    .orderBy(asc(memberships.uid))
    .for('update')
  const member = rows.find((row) => row.uid === memberUid)
  if (!member) throw new OrganisationItemNotFound('member')
  return { member, owners: rows.filter((row) => row.role === 'owner').length }
}

/** Gives a member another role. Only an owner makes or unmakes owners; the last owner stays one. */
export async function changeMemberRole(
  db: Db,
  by: AuditBy,
  uid: string,
  organisationId: string,
  memberUid: string,
  role: OrganisationRole,
): Promise<Member> {
  await db.transaction(async (tx) => {
    const { organisation, role: mine } = await requireRole(tx, uid, organisationId, 'members.manage')
    if (organisation.personal) throw new OrganisationRefused('A personal organisation has only its owner')
    const { member, owners } = await lockedMember(tx, organisationId, memberUid)
    if (role === 'owner' || member.role === 'owner') refuseUnless(mine, 'owners.manage')
    if (member.role === 'owner' && role !== 'owner' && owners <= 1)
      throw new OrganisationRefused('An organisation keeps at least one owner: make another member owner first')
    await tx
      .update(memberships)
      .set({ role })
      .where(and(eq(memberships.organisationId, organisationId), eq(memberships.uid, memberUid)))
    await recordAudit(tx, by, {
      action: 'member.role_changed',
      accountId: uid,
      details: { organisation_id: organisationId, member: memberUid, from: member.role, to: role },
    })
  })
  const member = (await membersOf(db, uid, organisationId)).find((m) => m.uid === memberUid)
  if (!member) throw new OrganisationItemNotFound('member')
  return member
}

/**
 * Removes a member (an admin or owner), or the caller itself (anyone may leave). Only an owner removes an owner,
 * and the last owner cannot leave. The member's access ends at once: keys are the organisation's, not theirs.
 */
export async function removeMember(
  db: Db,
  by: AuditBy,
  uid: string,
  organisationId: string,
  memberUid: string,
): Promise<void> {
  await db.transaction(async (tx) => {
    const leaving = memberUid === uid
    const { organisation, role: mine } = await requireRole(
      tx,
      uid,
      organisationId,
      leaving ? 'usage.read' : 'members.manage',
    )
    if (organisation.personal) throw new OrganisationRefused('A personal organisation has only its owner')
    const { member, owners } = await lockedMember(tx, organisationId, memberUid)
    if (member.role === 'owner' && !leaving) refuseUnless(mine, 'owners.manage')
    if (member.role === 'owner' && owners <= 1)
      throw new OrganisationRefused('An organisation keeps at least one owner: make another member owner first')
    await tx
      .delete(memberships)
      .where(and(eq(memberships.organisationId, organisationId), eq(memberships.uid, memberUid)))
    await recordAudit(tx, by, {
      action: leaving ? 'member.left' : 'member.removed',
      accountId: uid,
      details: { organisation_id: organisationId, member: memberUid, role: member.role },
    })
  })
}
