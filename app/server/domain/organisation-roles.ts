import type { OrganisationRole } from '~/contracts/organisations'
import { NotPermitted } from './refusals'

/**
 * What each role may do in an organisation: the one table every REST route and server function asks (through
 * `requireRole` or `keyAccess`), so a role means the same everywhere. Owner: everything; admin: everything but
 * deleting the organisation and making or unmaking owners; developer: keys (and the projects that group them)
 * and usage; billing: purchases, invoices, billing details and usage; viewer: usage.
 */
const table = {
  'organisation.rename': ['owner', 'admin'],
  'organisation.delete': ['owner'],
  'members.read': ['owner', 'admin'],
  'members.manage': ['owner', 'admin'],
  /** Making someone an owner, or changing or removing an owner. */
  'owners.manage': ['owner'],
  'keys.read': ['owner', 'admin', 'developer'],
  'keys.manage': ['owner', 'admin', 'developer'],
  'projects.read': ['owner', 'admin', 'developer', 'billing', 'viewer'],
  'projects.manage': ['owner', 'admin', 'developer'],
  'usage.read': ['owner', 'admin', 'developer', 'billing', 'viewer'],
  /** The shared balance's figure: those who spend it or pay for it. */
  'balance.read': ['owner', 'admin', 'developer', 'billing'],
  'billing.read': ['owner', 'admin', 'billing'],
  'billing.manage': ['owner', 'admin', 'billing'],
  /** Webhook endpoints, their secrets and delivery logs: what an endpoint receives tells of every key and payment. */
  'webhooks.manage': ['owner', 'admin'],
  /** Making and revoking Administration API keys: a key that can do what an admin can is an owner's to hand out. */
  'admin_keys.manage': ['owner'],
  /** Calling the Administration API (`/v1/organization/…`) with an admin key its maker still may use. */
  'admin_api.use': ['owner', 'admin'],
} as const satisfies Record<string, readonly OrganisationRole[]>

export type OrganisationAction = keyof typeof table

export function can(role: OrganisationRole, action: OrganisationAction): boolean {
  return (table[action] as readonly OrganisationRole[]).includes(role)
}

/** Refuses (403) unless `role` may do `action`. */
export function refuseUnless(role: OrganisationRole, action: OrganisationAction): void {
  if (!can(role, action)) throw new NotPermitted(role, action)
}

export const organisationActions = Object.keys(table) as OrganisationAction[]
