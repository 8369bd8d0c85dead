import { and, asc, eq, sql } from 'drizzle-orm'
import type { Project } from '~/contracts/organisations'
import { projects } from '../db/schema'
import type { Db, Tx } from '../db/types'
import { recordAudit, type AuditBy } from './audit'
import { requireRole } from './organisations'
import { OrganisationItemNotFound } from './refusals'

type ProjectRow = typeof projects.$inferSelect

const projectAnswer = (row: ProjectRow): Project => ({
  id: row.id,
  name: row.name,
  created_at: row.createdAt.toISOString(),
  archived_at: row.archivedAt?.toISOString() ?? null,
})

export async function projectsOf(db: Db, uid: string, organisationId: string): Promise<Project[]> {
  await requireRole(db, uid, organisationId, 'projects.read')
  const rows = await db
    .select()
    .from(projects)
    .where(eq(projects.organisationId, organisationId))
    .orderBy(asc(projects.createdAt))
  return rows.map(projectAnswer)
}

/** A project of this organisation (archived ones too), or 404: another organisation's reads the same as none. */
export async function projectIn(db: Db | Tx, organisationId: string, projectId: string): Promise<ProjectRow> {
  const [row] = await db
    .select()
    .from(projects)
    .where(and(eq(projects.id, projectId), eq(projects.organisationId, organisationId)))
  if (!row) throw new OrganisationItemNotFound('project')
  return row
}

export async function createProject(
  db: Db,
  by: AuditBy,
  uid: string,
  organisationId: string,
  name: string,
): Promise<Project> {
  return db.transaction(async (tx) => {
    await requireRole(tx, uid, organisationId, 'projects.manage')
    const [row] = await tx.insert(projects).values({ organisationId, name }).returning()
    await recordAudit(tx, by, {
      action: 'project.created',
      accountId: uid,
      details: { organisation_id: organisationId, project_id: row.id, name },
    })
    return projectAnswer(row)
  })
}

/** Renames, archives (its keys keep working; no new key joins it) or brings back a project. */
export async function changeProject(
  db: Db,
  by: AuditBy,
  uid: string,
  organisationId: string,
  projectId: string,
  change: { name?: string; archived?: boolean },
): Promise<Project> {
  return db.transaction(async (tx) => {
    await requireRole(tx, uid, organisationId, 'projects.manage')
    const current = await projectIn(tx, organisationId, projectId)
    if (change.name === undefined && change.archived === undefined) return projectAnswer(current)
    const [row] = await tx
      .update(projects)
      .set({
        ...(change.name !== undefined ? { name: change.name } : {}),
        ...(change.archived !== undefined
          ? { archivedAt: change.archived ? sql`coalesce(${projects.archivedAt}, now())` : null }
          : {}),
      })
      .where(eq(projects.id, projectId))
      .returning()
    await recordAudit(tx, by, {
      action: 'project.changed',
      accountId: uid,
      details: { organisation_id: organisationId, project_id: projectId, ...change },
    })
    return projectAnswer(row)
  })
}
