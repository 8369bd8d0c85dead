/** `/v1/organization/users` and `/invites`: the admin key's organisation's members and invitations. */
import type { AdminInvite, AdminUser, List, ListQuery } from '~/contracts/admin-api'
import type { Invitation, Member, OrganisationRole } from '~/contracts/organisations'
import { invitationsOf, invite, revokeInvitation } from '../../domain/invitations'
import { changeMemberRole, membersOf, removeMember } from '../../domain/members'
import { OrganisationItemNotFound } from '../../domain/refusals'
import { auditBy } from '../audit/actor'
import type { Caller } from '../caller'
import { invitationLink, invitationMail } from '../organisations/members'
import { adminOf } from './caller'
import { listPage, unixSeconds } from './list'

const userAnswer = (m: Member): AdminUser => ({
  object: 'organization.user',
  id: m.uid,
  name: m.display_name,
  email: m.email,
  role: m.role,
  added_at: unixSeconds(m.joined_at),
})

const inviteAnswer = (i: Invitation): AdminInvite => ({
  object: 'organization.invite',
  id: i.id,
  email: i.email,
  role: i.role,
  status: i.status,
  invited_at: unixSeconds(i.created_at),
  expires_at: unixSeconds(i.expires_at),
})

async function members(caller: Caller): Promise<AdminUser[]> {
  const { db, user, organisation } = await adminOf(caller)
  return (await membersOf(db, user.uid, organisation.id)).map(userAnswer)
}

export async function adminUsersFor(caller: Caller, query: ListQuery): Promise<List<AdminUser>> {
  return listPage(await members(caller), query)
}

export async function adminUserFor(caller: Caller, id: string): Promise<AdminUser> {
  const found = (await members(caller)).find((m) => m.id === id)
  if (!found) throw new OrganisationItemNotFound('member')
  return found
}

export async function modifyAdminUserFor(caller: Caller, id: string, role: OrganisationRole): Promise<AdminUser> {
  const { db, user, organisation } = await adminOf(caller)
  return userAnswer(await changeMemberRole(db, auditBy(caller), user.uid, organisation.id, id, role))
}

export async function deleteAdminUserFor(caller: Caller, id: string) {
  const { db, user, organisation } = await adminOf(caller)
  await removeMember(db, auditBy(caller), user.uid, organisation.id, id)
  return { object: 'organization.user.deleted' as const, id, deleted: true }
}

async function invitations(caller: Caller): Promise<AdminInvite[]> {
  const { db, user, organisation } = await adminOf(caller)
  return (await invitationsOf(db, user.uid, organisation.id)).map(inviteAnswer)
}

export async function adminInvitesFor(caller: Caller, query: ListQuery): Promise<List<AdminInvite>> {
  return listPage(await invitations(caller), query)
}

export async function adminInviteFor(caller: Caller, id: string): Promise<AdminInvite> {
  const found = (await invitations(caller)).find((i) => i.id === id)
  if (!found) throw new OrganisationItemNotFound('invitation')
  return found
}

export async function createAdminInviteFor(
  caller: Caller,
  input: { email: string; role: OrganisationRole },
): Promise<AdminInvite> {
  const { db, user, organisation } = await adminOf(caller)
  const mail = { linkOf: invitationLink, text: invitationMail }
  return inviteAnswer(await invite(db, auditBy(caller), user, organisation.id, input, mail))
}

export async function deleteAdminInviteFor(caller: Caller, id: string) {
  const { db, user, organisation } = await adminOf(caller)
  await revokeInvitation(db, auditBy(caller), user.uid, organisation.id, id)
  return { object: 'organization.invite.deleted' as const, id, deleted: true }
}
