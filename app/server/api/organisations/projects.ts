/** Projects of an organisation (session; `projects.*` in the roles table). */
import type * as v from 'valibot'
import type { Project, projectChangeInput, projectInput } from '~/contracts/organisations'
import type { SpendLimit, SpendLimitInput } from '~/contracts/spend-limits'
import { changeProject, createProject, projectsOf } from '../../domain/projects'
import { addProjectSpendLimit, projectSpendLimits, removeProjectSpendLimit } from '../../domain/project-spend-limits'
import { auditBy } from '../audit/actor'
import type { Caller } from '../caller'
import { accountOf } from '../account/session'

export async function projectsFor(caller: Caller, organisationId: string): Promise<{ projects: Project[] }> {
  const { db, user } = await accountOf(caller)
  return { projects: await projectsOf(db, user.uid, organisationId) }
}

export async function createProjectFor(
  caller: Caller,
  organisationId: string,
  { name }: v.InferOutput<typeof projectInput>,
): Promise<Project> {
  const { db, user } = await accountOf(caller)
  return createProject(db, auditBy(caller), user.uid, organisationId, name)
}

export async function changeProjectFor(
  caller: Caller,
  organisationId: string,
  projectId: string,
  change: v.InferOutput<typeof projectChangeInput>,
): Promise<Project> {
  const { db, user } = await accountOf(caller)
  return changeProject(db, auditBy(caller), user.uid, organisationId, projectId, change)
}

/** DELETE archives: keys and their history name the project, so it is kept (and can be brought back). */
export async function archiveProjectFor(caller: Caller, organisationId: string, projectId: string): Promise<Project> {
  return changeProjectFor(caller, organisationId, projectId, { archived: true })
}

export async function projectLimitsFor(
  caller: Caller,
  organisationId: string,
  projectId: string,
): Promise<{ limits: SpendLimit[] }> {
  const { db, user } = await accountOf(caller)
  return { limits: await projectSpendLimits(db, user.uid, organisationId, projectId) }
}

export async function addProjectLimitFor(
  caller: Caller,
  organisationId: string,
  projectId: string,
  input: SpendLimitInput,
): Promise<SpendLimit> {
  const { db, user } = await accountOf(caller)
  return addProjectSpendLimit(db, auditBy(caller), user.uid, organisationId, projectId, input)
}

export async function removeProjectLimitFor(
  caller: Caller,
  organisationId: string,
  projectId: string,
  limitId: string,
): Promise<{ detail: string }> {
  const { db, user } = await accountOf(caller)
  await removeProjectSpendLimit(db, auditBy(caller), user.uid, organisationId, projectId, limitId)
  return { detail: 'Spend limit removed' }
}
