import { createHash, randomBytes } from 'node:crypto'
import { and, desc, eq, isNull, sql } from 'drizzle-orm'
import type { Invitation, OrganisationRole } from '~/contracts/organisations'
import { rowsOf } from '../db/rows'
import { emailOutbox, invitations, memberships } from '../db/schema'
import type { Db } from '../db/types'
import { emitMemberJoined } from './webhook-events'
import { recordAudit, type AuditBy } from './audit'
import { refuseUnless } from './organisation-roles'
import { requireRole, type OrganisationRow } from './organisations'
import { InvitationRefused, OrganisationItemNotFound, OrganisationRefused } from './refusals'
import type { User } from './users'

/** How long an invitation's link works. */
export const INVITATION_DAYS = 7

type InvitationRow = typeof invitations.$inferSelect

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex')

function invitationAnswer(row: InvitationRow, now = Date.now()): Invitation {
  return {
    id: row.id,
    email: row.email,
    role: row.role,
    created_at: row.createdAt.toISOString(),
    expires_at: row.expiresAt.toISOString(),
    status: row.acceptedAt
      ? 'accepted'
      : row.revokedAt
        ? 'revoked'
        : row.expiresAt.getTime() <= now
          ? 'expired'
          : 'pending',
  }
}

/** The mail an invitation sends: from the organisation's name, the inviter, the link and when it expires. */
export type InvitationMail = (facts: {
  organisation: string
  inviter: string
  role: OrganisationRole
  link: string
  expiresAt: Date
}) => { subject: string; text: string }

/**
 * Invites an address into the organisation with a role, and queues its mail (the link carries a random token;
 * only its hash is kept) in the same transaction. Only an owner invites an owner.
 */
export async function invite(
  db: Db,
  by: AuditBy,
  inviter: User,
  organisationId: string,
  input: { email: string; role: OrganisationRole },
  mail: { linkOf: (token: string) => string; text: InvitationMail },
): Promise<Invitation> {
  return db.transaction(async (tx) => {
    const { organisation, role } = await requireRole(tx, inviter.uid, organisationId, 'members.manage')
    refuseInvitationTo(organisation)
    if (input.role === 'owner') refuseUnless(role, 'owners.manage')
    const token = randomBytes(32).toString('base64url')
    const [row] = await tx
      .insert(invitations)
      .values({
        organisationId,
        email: input.email,
        role: input.role,
        tokenHash: hashToken(token),
        invitedBy: inviter.uid,
        expiresAt: sql`now() + make_interval(days => ${INVITATION_DAYS})`,
      })
      .returning()
    const { subject, text } = mail.text({
      organisation: organisation.name,
      inviter: inviter.displayName ?? inviter.email ?? 'A member',
      role: input.role,
      link: mail.linkOf(token),
      expiresAt: row.expiresAt,
    })
    await tx.insert(emailOutbox).values({
      to: input.email,
      subject,
      text,
      kind: 'organisation_invitation',
      meta: { organisation_id: organisationId, invitation_id: row.id },
    })
    await recordAudit(tx, by, {
      action: 'invitation.sent',
      accountId: inviter.uid,
      details: { organisation_id: organisationId, invitation_id: row.id, email: input.email, role: input.role },
    })
    return invitationAnswer(row)
  })
}

function refuseInvitationTo(organisation: OrganisationRow) {
  if (organisation.personal)
    throw new OrganisationRefused('A personal organisation has only its owner: create an organisation to invite people')
}

/** The organisation's invitations, newest first, whatever became of them. */
export async function invitationsOf(db: Db, uid: string, organisationId: string): Promise<Invitation[]> {
  await requireRole(db, uid, organisationId, 'members.read')
  const rows = await db
    .select()
    .from(invitations)
    .where(eq(invitations.organisationId, organisationId))
    .orderBy(desc(invitations.createdAt))
    .limit(200)
  return rows.map((row) => invitationAnswer(row))
}

/** Revokes an invitation not yet accepted: its link stops working. */
export async function revokeInvitation(
  db: Db,
  by: AuditBy,
  uid: string,
  organisationId: string,
  invitationId: string,
): Promise<Invitation> {
  return db.transaction(async (tx) => {
    const { role } = await requireRole(tx, uid, organisationId, 'members.manage')
    const [row] = await tx
      .select()
      .from(invitations)
      .where(and(eq(invitations.id, invitationId), eq(invitations.organisationId, organisationId)))
      .for('update')
    if (!row) throw new OrganisationItemNotFound('invitation')
    if (row.role === 'owner') refuseUnless(role, 'owners.manage')
    if (row.acceptedAt) throw new OrganisationRefused('This invitation was accepted already')
    const [revoked] = await tx
      .update(invitations)
      .set({ revokedAt: sql`coalesce(${invitations.revokedAt}, now())` })
      .where(eq(invitations.id, invitationId))
      .returning()
    await recordAudit(tx, by, {
      action: 'invitation.revoked',
      accountId: uid,
      details: { organisation_id: organisationId, invitation_id: invitationId },
    })
    return invitationAnswer(revoked)
  })
}

/**
 * What a live invitation link offers (organisation and role), for the person holding it before they accept; the
 * token is the secret, so its holder may read this much. Refused as accepting it would be, but for the address.
 */
export async function previewInvitation(
  db: Db,
  token: string,
): Promise<{ organisation: string; role: OrganisationRole; email: string; expiresAt: Date }> {
  const rows = rowsOf<{
    name: string
    role: OrganisationRole
    email: string
    expires_at: Date | string
    accepted_at: unknown
    revoked_at: unknown
    deleted_at: unknown
  }>(
    await db.execute(
      sql`select o.name, i.role, i.email, i.expires_at, i.accepted_at, i.revoked_at, o.deleted_at
          from invitations i join organisations o on o.id = i.organisation_id
          where i.token_hash = ${hashToken(token)}`,
    ),
  )
  const row = rows[0]
  if (!row) throw new InvitationRefused('This invitation link is not valid')
  if (row.accepted_at) throw new InvitationRefused('This invitation was accepted already')
  if (row.revoked_at) throw new InvitationRefused('This invitation was revoked')
  const expiresAt = new Date(row.expires_at)
  if (expiresAt.getTime() <= Date.now()) throw new InvitationRefused('This invitation has expired: ask for a new one')
  if (row.deleted_at) throw new InvitationRefused('This organisation no longer exists')
  return { organisation: row.name, role: row.role, email: row.email, expiresAt }
}

/**
 * Accepts an invitation by its token, once: the signed-in account must have the invited address, verified by
 * the identity service, and the link must be live (not used, revoked or expired, its organisation not deleted).
 * A member already in the organisation keeps the role it has. Returns the organisation's id.
 */
export async function acceptInvitation(db: Db, by: AuditBy, user: User, token: string): Promise<string> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(invitations)
      .where(eq(invitations.tokenHash, hashToken(token)))
      .for('update')
    if (!row) throw new InvitationRefused('This invitation link is not valid')
    if (row.acceptedAt) throw new InvitationRefused('This invitation was accepted already')
    if (row.revokedAt) throw new InvitationRefused('This invitation was revoked')
    if (row.expiresAt.getTime() <= Date.now())
      throw new InvitationRefused('This invitation has expired: ask for a new one')
    if (!user.email || user.email.toLowerCase() !== row.email.toLowerCase())
      throw new InvitationRefused(`This invitation is for ${row.email}: sign in with that address`)
    if (!user.emailVerified)
      throw new InvitationRefused('Verify your e-mail address, then sign in again to accept this invitation')
    const live = rowsOf(
      await tx.execute(
        sql`select 1 from organisations where id = ${row.organisationId}::uuid and deleted_at is null for share`,
      ),
    )
    if (live.length === 0) throw new InvitationRefused('This organisation no longer exists')
    const joined = await tx
      .insert(memberships)
      .values({ organisationId: row.organisationId, uid: user.uid, role: row.role })
      .onConflictDoNothing()
      .returning({ uid: memberships.uid })
    // A member already in it did not join: no event then.
    if (joined.length > 0)
      await emitMemberJoined(
        tx,
        { organisationId: row.organisationId, accountId: user.uid },
        { role: row.role, invitation_id: row.id },
      )
    await tx
      .update(invitations)
      .set({ acceptedAt: sql`now()`, acceptedBy: user.uid })
      .where(and(eq(invitations.id, row.id), isNull(invitations.acceptedAt)))
    await recordAudit(tx, by, {
      action: 'invitation.accepted',
      accountId: user.uid,
      details: { organisation_id: row.organisationId, invitation_id: row.id, role: row.role },
    })
    return row.organisationId
  })
}
