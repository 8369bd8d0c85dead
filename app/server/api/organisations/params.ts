import * as v from 'valibot'
import { invitationIdParam, memberIdParam, organisationIdParam, projectIdParam } from '~/contracts/organisations'
import { OrganisationItemNotFound, OrganisationNotFound } from '../../domain/refusals'

/** A path id that is not of the right shape names nothing: 404, as another organisation's does. */
export function parseOrganisationId(params: Record<string, string>): string {
  const parsed = v.safeParse(organisationIdParam, params.orgId)
  if (!parsed.success) throw new OrganisationNotFound()
  return parsed.output
}

export function parseItemId(params: Record<string, string>, what: 'member' | 'project' | 'invitation'): string {
  const schema = { member: memberIdParam, project: projectIdParam, invitation: invitationIdParam }[what]
  const parsed = v.safeParse(schema, params[`${what}Id`])
  if (!parsed.success) throw new OrganisationItemNotFound(what)
  return parsed.output
}
