import { eq, sql } from 'drizzle-orm'
import { MAX_SPEND_LIMITS, type SpendLimit, type SpendLimitInput } from '~/contracts/spend-limits'
import { rowsOf } from '../db/rows'
import { organisations, users } from '../db/schema'
import type { Db, Tx } from '../db/types'
import { recordAudit, type AuditBy } from './audit'
import { requireRole } from './organisations'
import { projectIn } from './projects'
import { InvalidInput, SpendLimitNotFound } from './refusals'
import { subjectSpendLimits } from './spend-limits'

/**
 * Spend limits of a project: every key of the project counts into them together, beside its own limits. The
 * ledger enforces them (spend_limits_judge locks the project's rows, which is what makes them exact across
 * keys); this module keeps the rows, for the roles that manage projects.
 */

/** The shared balance row whose purchases price the project's dollar limits (none in a personal organisation). */
async function balanceRowOf(db: Db | Tx, organisationId: string): Promise<string | null> {
  const [row] = await db
    .select({ id: organisations.balanceKeyId })
    .from(organisations)
    .where(eq(organisations.id, organisationId))
  return row?.id ?? null
}

export async function projectSpendLimits(
  db: Db,
  uid: string,
  organisationId: string,
  projectId: string,
): Promise<SpendLimit[]> {
  await requireRole(db, uid, organisationId, 'projects.read')
  await projectIn(db, organisationId, projectId)
  return subjectSpendLimits(db, { kind: 'project', id: projectId }, await balanceRowOf(db, organisationId))
}

async function callerEmail(tx: Tx, uid: string): Promise<string | null> {
  const [row] = await tx
    .select({ email: sql<string | null>`coalesce(${users.notificationEmail}, ${users.email})` })
    .from(users)
    .where(eq(users.uid, uid))
  return row?.email ?? null
}

/**
 * Adds a limit to a project, counting from the start what the project's keys consumed in the current period
 * (net of what was given back). The project's existing limits are locked first, as the ledger takes them, so no
 * second limit is added beside one being counted. Audited.
 */
export async function addProjectSpendLimit(
  db: Db,
  by: AuditBy,
  uid: string,
  organisationId: string,
  projectId: string,
  input: SpendLimitInput,
): Promise<SpendLimit> {
  return db.transaction(async (tx) => {
    await requireRole(tx, uid, organisationId, 'projects.manage')
    await projectIn(tx, organisationId, projectId)
    const existing = rowsOf<{ id: string }>(
      await tx.execute(sql`select id from spend_limits where subject_kind = 'project'
        and subject_id = ${projectId}::uuid order by id for update`),
    )
    if (existing.length >= MAX_SPEND_LIMITS)
      throw new InvalidInput([
        { loc: ['body'], msg: `a project may have at most ${MAX_SPEND_LIMITS} spend limits`, type: 'too_many' },
      ])
    const email = input.alert_percent === null ? null : (input.alert_email ?? (await callerEmail(tx, uid)) ?? undefined)
    if (email === undefined)
      throw new InvalidInput([
        { loc: ['body', 'alert_email'], msg: 'is needed: the account has no address', type: 'missing' },
      ])
    const [row] = rowsOf<{ id: string }>(
      await tx.execute(sql`
        insert into spend_limits (subject_kind, subject_id, unit, amount, period, used, period_of, alert_percent, alert_email)
        select 'project', ${projectId}::uuid, ${input.unit}, ${String(input.amount)}::numeric, ${input.period},
          greatest(0, coalesce((select -sum(e.amount) from ledger_entries e join api_keys a on a.id = e.key_id
            where a.project_id = ${projectId}::uuid
              and e.created_at >= spend_limit_period_start(${input.period}, now()) at time zone 'UTC'
              and (e.type = 'consume' or (e.type = 'adjustment' and e.external_ref like 'usage-reversal:%'))), 0)),
          spend_limit_period_start(${input.period}, now()), ${input.alert_percent}, ${email}
        returning id`),
    )
    await recordAudit(tx, by, {
      action: 'project.limit_added',
      accountId: uid,
      details: {
        organisation_id: organisationId,
        project_id: projectId,
        limit_id: row.id,
        unit: input.unit,
        amount: input.amount,
        period: input.period,
      },
    })
    const limits = await subjectSpendLimits(
      tx,
      { kind: 'project', id: projectId },
      await balanceRowOf(tx, organisationId),
    )
    return limits.find((limit) => limit.id === row.id)!
  })
}

/** Removes one limit of a project (another project's, or an unknown one, reads as not found). Audited. */
export async function removeProjectSpendLimit(
  db: Db,
  by: AuditBy,
  uid: string,
  organisationId: string,
  projectId: string,
  limitId: string,
): Promise<void> {
  await db.transaction(async (tx) => {
    await requireRole(tx, uid, organisationId, 'projects.manage')
    await projectIn(tx, organisationId, projectId)
    const removed = rowsOf<{ unit: string; amount: string; period: string }>(
      await tx.execute(sql`delete from spend_limits
        where id = ${limitId}::uuid and subject_kind = 'project' and subject_id = ${projectId}::uuid
        returning unit, amount, period`),
    )
    if (removed.length === 0) throw new SpendLimitNotFound()
    const [gone] = removed
    await recordAudit(tx, by, {
      action: 'project.limit_removed',
      accountId: uid,
      details: {
        organisation_id: organisationId,
        project_id: projectId,
        limit_id: limitId,
        unit: gone.unit,
        amount: Number(gone.amount),
        period: gone.period,
      },
    })
  })
}
