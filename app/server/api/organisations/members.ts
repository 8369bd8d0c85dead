/** Members and invitations of an organisation (session; `members.*` in the roles table). */
import type * as v from 'valibot'
import { brand } from '#config'
import type {
  Invitation,
  InvitationPreview,
  Member,
  OrganisationRole,
  acceptInvitationInput,
  invitationInput,
} from '~/contracts/organisations'
import {
  acceptInvitation,
  invitationsOf,
  invite,
  previewInvitation,
  revokeInvitation,
  INVITATION_DAYS,
  type InvitationMail,
} from '../../domain/invitations'
import { changeMemberRole, membersOf, removeMember } from '../../domain/members'
import type { Organisation } from '~/contracts/organisations'
import { serverEnv } from '../../env'
import { auditBy } from '../audit/actor'
import type { Caller } from '../caller'
import { accountOf } from '../account/session'
import { organisationFor } from './organisations'

export async function membersFor(caller: Caller, organisationId: string): Promise<{ members: Member[] }> {
  const { db, user } = await accountOf(caller)
  return { members: await membersOf(db, user.uid, organisationId) }
}

export async function changeMemberRoleFor(
  caller: Caller,
  organisationId: string,
  memberUid: string,
  role: OrganisationRole,
): Promise<Member> {
  const { db, user } = await accountOf(caller)
  return changeMemberRole(db, auditBy(caller), user.uid, organisationId, memberUid, role)
}

export async function removeMemberFor(
  caller: Caller,
  organisationId: string,
  memberUid: string,
): Promise<{ detail: string }> {
  const { db, user } = await accountOf(caller)
  await removeMember(db, auditBy(caller), user.uid, organisationId, memberUid)
  return { detail: memberUid === user.uid ? 'You left the organisation' : 'Member removed' }
}

const roleNames: Record<OrganisationRole, string> = {
  owner: 'an owner (everything)',
  admin: 'an admin (everything but deleting it and changing its owners)',
  developer: 'a developer (keys and usage)',
  billing: 'a billing member (purchases, invoices, billing details and usage)',
  viewer: 'a viewer (usage)',
}

/** The invitation mail (English, as the site's other mail is), with the link and the day it stops working. */
export const invitationMail: InvitationMail = ({ organisation, inviter, role, link, expiresAt }) => ({
  subject: `${brand.name}: ${inviter} invites you to ${organisation}`,
  text: [
    `${inviter} invites you to join the organisation "${organisation}" on ${brand.name} as ${roleNames[role]}.`,
    '',
    `Accept: ${link}`,
    '',
    `Sign in (or create an account) with this e-mail address to accept. The link works for ${INVITATION_DAYS} days, until ${expiresAt.toISOString().slice(0, 16).replace('T', ' ')} UTC, and only once.`,
    'If you did not expect it, you can ignore this message.',
    '',
  ].join('\n'),
})

/**
 * Where the mail's link leads: the dashboard's Members tab (signed in: a visitor signs in or up first, the token
 * kept), which offers to accept it.
 */
export const invitationLink = (token: string) =>
  `${serverEnv().PUBLIC_BASE_URL.replace(/\/$/, '')}/api-dashboard/members?invitation=${encodeURIComponent(token)}`

export async function inviteFor(
  caller: Caller,
  organisationId: string,
  input: v.InferOutput<typeof invitationInput>,
): Promise<Invitation> {
  const { db, user } = await accountOf(caller)
  return invite(db, auditBy(caller), user, organisationId, input, { linkOf: invitationLink, text: invitationMail })
}

export async function invitationsFor(caller: Caller, organisationId: string): Promise<{ invitations: Invitation[] }> {
  const { db, user } = await accountOf(caller)
  return { invitations: await invitationsOf(db, user.uid, organisationId) }
}

export async function revokeInvitationFor(
  caller: Caller,
  organisationId: string,
  invitationId: string,
): Promise<Invitation> {
  const { db, user } = await accountOf(caller)
  return revokeInvitation(db, auditBy(caller), user.uid, organisationId, invitationId)
}

/** The invited person, signed in with the invited address, joins: answered with the organisation as they see it now. */
export async function acceptInvitationFor(
  caller: Caller,
  { token }: v.InferOutput<typeof acceptInvitationInput>,
): Promise<Organisation> {
  const { db, user } = await accountOf(caller)
  const organisationId = await acceptInvitation(db, auditBy(caller), user, token)
  return organisationFor(caller, organisationId)
}

/** What the link offers, shown before the invited person accepts. */
export async function previewInvitationFor(
  caller: Caller,
  { token }: v.InferOutput<typeof acceptInvitationInput>,
): Promise<InvitationPreview> {
  const { db } = await accountOf(caller)
  const { organisation, role, email, expiresAt } = await previewInvitation(db, token)
  return { organisation, role, email, expires_at: expiresAt.toISOString() }
}
