import type { MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import type { OrganisationRole } from '~/contracts/organisations'

/**
 * Which controls the Members tab shows for the role the server reports; the server's table
 * (app/server/domain/organisation-roles.ts) decides, and refuses what this hides anyway.
 */
const rights = {
  renameOrganisation: ['owner', 'admin'],
  deleteOrganisation: ['owner'],
  manageMembers: ['owner', 'admin'],
  manageOwners: ['owner'],
  readKeys: ['owner', 'admin', 'developer'],
  manageProjects: ['owner', 'admin', 'developer'],
  manageAdminKeys: ['owner'],
} as const satisfies Record<string, readonly OrganisationRole[]>

export type Right = keyof typeof rights

export const may = (role: OrganisationRole, right: Right) => (rights[right] as readonly string[]).includes(role)

export const roleLabels: Record<OrganisationRole, MessageDescriptor> = {
  owner: msg`Owner`,
  admin: msg`Admin`,
  developer: msg`Developer`,
  billing: msg`Billing`,
  viewer: msg`Viewer`,
}

/** What each role may do, said under the role picker. */
export const roleHints: Record<OrganisationRole, MessageDescriptor> = {
  owner: msg`Everything, including deleting the organisation`,
  admin: msg`Everything but deleting it and changing its owners`,
  developer: msg`Keys, projects and usage`,
  billing: msg`Purchases, invoices, billing details and usage`,
  viewer: msg`Usage only`,
}

/** The roles a member of `role` may give: only an owner makes owners. */
export const grantable = (role: OrganisationRole): OrganisationRole[] =>
  may(role, 'manageOwners')
    ? ['owner', 'admin', 'developer', 'billing', 'viewer']
    : ['admin', 'developer', 'billing', 'viewer']
