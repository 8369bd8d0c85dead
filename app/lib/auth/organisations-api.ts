import type {
  Invitation,
  InvitationPreview,
  Member,
  Organisation,
  OrganisationKey,
  OrganisationRole,
  Project,
} from '~/contracts/organisations'
import type { AdminKey } from '~/contracts/admin-keys'
import { restCall } from '~/lib/rest-call'

/**
 * The session's organisations as the dashboard calls them (app/contracts/organisations.ts): same-origin REST,
 * so the session cookie goes along; a refusal becomes an ApiError with the server's `detail`.
 */
const request = restCall
const base = 'account/organisations'
const org = (id: string, rest = '') => `${base}/${encodeURIComponent(id)}${rest}`
const item = (id: string, kind: string, itemId: string) => org(id, `/${kind}/${encodeURIComponent(itemId)}`)

export const organisationsApi = {
  list: () => request<{ organisations: Organisation[] }>('GET', base),
  create: (name: string) => request<Organisation>('POST', base, { json: { name } }),
  rename: (id: string, name: string) => request<Organisation>('PATCH', org(id), { json: { name } }),
  remove: (id: string) => request<{ detail: string }>('DELETE', org(id)),

  members: (id: string) => request<{ members: Member[] }>('GET', org(id, '/members')),
  changeRole: (id: string, uid: string, role: OrganisationRole) =>
    request<Member>('PATCH', item(id, 'members', uid), { json: { role } }),
  removeMember: (id: string, uid: string) => request<{ detail: string }>('DELETE', item(id, 'members', uid)),

  invitations: (id: string) => request<{ invitations: Invitation[] }>('GET', org(id, '/invitations')),
  invite: (id: string, email: string, role: OrganisationRole) =>
    request<Invitation>('POST', org(id, '/invitations'), { json: { email, role } }),
  revokeInvitation: (id: string, invitationId: string) =>
    request<Invitation>('DELETE', item(id, 'invitations', invitationId)),
  previewInvitation: (token: string) =>
    request<InvitationPreview>('POST', `${base}/invitations/preview`, { json: { token } }),
  acceptInvitation: (token: string) => request<Organisation>('POST', `${base}/invitations/accept`, { json: { token } }),

  projects: (id: string) => request<{ projects: Project[] }>('GET', org(id, '/projects')),
  createProject: (id: string, name: string) => request<Project>('POST', org(id, '/projects'), { json: { name } }),
  changeProject: (id: string, projectId: string, change: { name?: string; archived?: boolean }) =>
    request<Project>('PATCH', item(id, 'projects', projectId), { json: change }),

  keys: (id: string) => request<{ keys: OrganisationKey[] }>('GET', org(id, '/keys')),
  createKey: (id: string, input: { name: string | null; project_id: string | null; captcha: string }) =>
    request<{ api_key: string; key: OrganisationKey }>('POST', org(id, '/keys'), { json: input }),
  moveKey: (keyId: string, projectId: string | null) =>
    request<OrganisationKey>('PUT', `account/keys/${encodeURIComponent(keyId)}/project`, {
      json: { project_id: projectId },
    }),

  adminKeys: (id: string) =>
    request<{ data: AdminKey[] }>('GET', `account/admin_keys?organisation_id=${encodeURIComponent(id)}`),
  createAdminKey: (id: string, name: string) =>
    request<AdminKey & { value: string }>('POST', 'account/admin_keys', { json: { organisation_id: id, name } }),
  revokeAdminKey: (keyId: string) => request<AdminKey>('DELETE', `account/admin_keys/${encodeURIComponent(keyId)}`),
}
