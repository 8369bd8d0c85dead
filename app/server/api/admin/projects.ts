/** `/v1/organization/projects`: the admin key's organisation's projects. */
import type { AdminProject, List } from '~/contracts/admin-api'
import type { Project } from '~/contracts/organisations'
import { changeProject, createProject, projectsOf } from '../../domain/projects'
import { OrganisationItemNotFound } from '../../domain/refusals'
import { auditBy } from '../audit/actor'
import type { Caller } from '../caller'
import { adminOf } from './caller'
import { listPage, unixSeconds } from './list'

const projectAnswer = (p: Project): AdminProject => ({
  object: 'organization.project',
  id: p.id,
  name: p.name,
  created_at: unixSeconds(p.created_at),
  archived_at: p.archived_at ? unixSeconds(p.archived_at) : null,
  status: p.archived_at ? 'archived' : 'active',
})

async function projects(caller: Caller): Promise<AdminProject[]> {
  const { db, user, organisation } = await adminOf(caller)
  return (await projectsOf(db, user.uid, organisation.id)).map(projectAnswer)
}

export async function adminProjectsFor(
  caller: Caller,
  query: { after?: string; limit?: number; include_archived?: 'true' | 'false' },
): Promise<List<AdminProject>> {
  const all = await projects(caller)
  return listPage(query.include_archived === 'true' ? all : all.filter((p) => p.status === 'active'), query)
}

export async function adminProjectFor(caller: Caller, id: string): Promise<AdminProject> {
  const found = (await projects(caller)).find((p) => p.id === id)
  if (!found) throw new OrganisationItemNotFound('project')
  return found
}

export async function createAdminProjectFor(caller: Caller, { name }: { name: string }): Promise<AdminProject> {
  const { db, user, organisation } = await adminOf(caller)
  return projectAnswer(await createProject(db, auditBy(caller), user.uid, organisation.id, name))
}

export async function modifyAdminProjectFor(
  caller: Caller,
  id: string,
  change: { name?: string; archived?: boolean },
): Promise<AdminProject> {
  const { db, user, organisation } = await adminOf(caller)
  return projectAnswer(await changeProject(db, auditBy(caller), user.uid, organisation.id, id, change))
}
