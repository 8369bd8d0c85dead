import { randomUUID } from 'node:crypto'
import { sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { memberships, projects } from '~/server/db/schema'
import { bySystem } from '~/server/domain/audit'
import { issueKey } from '~/server/domain/keys'
import { applyEntries, applyEntry, auditLedger, type EntryInput } from '~/server/domain/ledger'
import { consume } from '~/server/domain/metering'
import { ensurePersonalOrganisation } from '~/server/domain/organisations'
import { apiDatabase, call, scalar } from '../support/api'
import { outcomeOf } from '../support/outcome'
import { organisationWithBalance, signedInAccount } from '../support/organisations'
import { describeWithService } from '../support/services'

// A project's limit is one row every key of the project counts into, judged under its lock inside the debit.
// The first block runs on either database; the second needs concurrent transactions on the real Postgres, where
// keys of one project on different balance rows could deadlock if the locks were taken in another order.
describe('spend limits of a project', () => {
  const database = apiDatabase({ maxConnections: 20 })
  const projectUrl = (orgId: string, projectId: string) =>
    `/api/v1/account/organisations/${orgId}/projects/${projectId}/limits`

  async function teamWithProject(balance: number) {
    const owner = await signedInAccount(database.db, 'project-owner')
    const organisation = await organisationWithBalance(database.db, owner.uid, balance)
    const [project] = await database.db
      .insert(projects)
      .values({ organisationId: organisation.id, name: 'Search backend' })
      .returning()
    const keyIn = async (projectId: string | null) => {
      const { apiKey, key } = await issueKey(database.db, bySystem, 'empty', {
        organisationId: organisation.id,
        balanceKeyId: organisation.balanceKeyId,
        projectId,
      })
      return { apiKey, id: key.id }
    }
    return { owner, organisation, project, keyIn }
  }
  const debit = (keyId: string, tokens: number) =>
    outcomeOf(consume(database.db, { keyId, tokens, usageEventId: randomUUID(), product: 'embeddings' }))

  it("counts the project's keys together, leaves other keys alone, and starts from what the period already spent", async () => {
    const { owner, organisation, project, keyIn } = await teamWithProject(1_000_000)
    const [a, b] = [await keyIn(project.id), await keyIn(project.id)]
    const outside = await keyIn(null)
    expect(await debit(a.id, 300)).toBe('ok')

    const added = await call('POST', projectUrl(organisation.id, project.id), {
      headers: owner.init.headers,
      json: { unit: 'tokens', amount: 1_000, period: 'month' },
    })
    expect(added.status).toBe(200)
    expect(added.body).toMatchObject({ subject_kind: 'project', subject_id: project.id, used: 300, left: 700 })

    expect(await debit(b.id, 600)).toBe('ok')
    // 900 of 1,000 spent by the two keys: 200 more from either is refused, whichever key asks.
    expect(await debit(a.id, 200)).toBe('SpendLimitReached')
    expect(await debit(b.id, 200)).toBe('SpendLimitReached')
    expect(await debit(outside.id, 5_000)).toBe('ok')
    const answer = await call('POST', '/v1/embeddings', {
      bearer: a.apiKey,
      json: { model: 'embeddings-v3', input: ['x '.repeat(400)] },
    })
    expect(answer.status).toBe(402)
    expect(answer.body.detail).toMatch(/monthly spend limit of 1,000 tokens/)

    const listed = await call('GET', projectUrl(organisation.id, project.id), { headers: owner.init.headers })
    expect(listed.body.limits).toEqual([expect.objectContaining({ used: 900, left: 100, period: 'month' })])
    const removed = await call('DELETE', `${projectUrl(organisation.id, project.id)}/${added.body.id}`, {
      headers: owner.init.headers,
    })
    expect(removed.status).toBe(200)
    expect(await debit(a.id, 200)).toBe('ok')
    expect(await auditLedger(database.db)).toEqual([])
  })

  it('is read by every member and set only by those who manage projects', async () => {
    const { organisation, project } = await teamWithProject(0)
    const viewer = await signedInAccount(database.db, 'project-viewer')
    await database.db.insert(memberships).values({ organisationId: organisation.id, uid: viewer.uid, role: 'viewer' })
    const stranger = await signedInAccount(database.db, 'stranger')
    const limit = { unit: 'usd', amount: 5, period: 'week' }

    expect((await call('GET', projectUrl(organisation.id, project.id), { headers: viewer.init.headers })).status).toBe(
      200,
    )
    const refused = await call('POST', projectUrl(organisation.id, project.id), {
      headers: viewer.init.headers,
      json: limit,
    })
    expect(refused.status).toBe(403)
    const unseen = await call('POST', projectUrl(organisation.id, project.id), {
      headers: stranger.init.headers,
      json: limit,
    })
    expect(unseen.status).toBe(404)
    const unknown = await call('GET', projectUrl(organisation.id, randomUUID()), { headers: viewer.init.headers })
    expect(unknown.status).toBe(404)
    expect(await scalar(database.db, sql`select count(*) from spend_limits where subject_kind = 'project'`)).toBe(0)
  })

  it('50 concurrent requests from 5 keys of a project against a limit worth 20 of them: 20 pass', async () => {
    const { organisation, project, keyIn } = await teamWithProject(1_000_000)
    const keys = await Promise.all(Array.from({ length: 5 }, () => keyIn(project.id)))
    await database.db.execute(sql`insert into spend_limits (subject_kind, subject_id, unit, amount, period)
      values ('project', ${project.id}::uuid, 'tokens', 2000, 'day')`)
    const outcomes = await Promise.all(Array.from({ length: 50 }, (_, i) => debit(keys[i % 5].id, 100)))
    expect(outcomes.filter((o) => o === 'ok')).toHaveLength(20)
    expect(outcomes.filter((o) => o === 'SpendLimitReached')).toHaveLength(30)
    expect(await scalar(database.db, sql`select used from spend_limits where subject_id = ${project.id}::uuid`)).toBe(
      2000,
    )
    expect(
      await scalar(database.db, sql`select balance from api_keys where id = ${organisation.balanceKeyId}::uuid`),
    ).toBe(1_000_000 - 2000)
    expect(await auditLedger(database.db)).toEqual([])
  })
})

describeWithService('TEST_DATABASE_URL', 'a project limit shared by keys of separate balances [PG]', () => {
  const database = apiDatabase({ maxConnections: 20 })
  const deadlocks = () =>
    scalar(database.db, sql`select deadlocks from pg_stat_database where datname = current_database()`)

  it('keys with their own balances, debited at once, never deadlock or pass the limit', async () => {
    const owner = await signedInAccount(database.db, 'personal-owner')
    const personal = await ensurePersonalOrganisation(database.db, owner.uid)
    const [project] = await database.db.insert(projects).values({ organisationId: personal, name: 'P' }).returning()
    const keys = await Promise.all(
      Array.from({ length: 6 }, async () => {
        const { key } = await issueKey(database.db, bySystem, 'empty', {
          ownerId: owner.uid,
          organisationId: personal,
          projectId: project.id,
        })
        await applyEntry(database.db, {
          keyId: key.id,
          amount: 10_000,
          type: 'purchase',
          externalRef: `purchase:${randomUUID()}`,
        })
        return key.id
      }),
    )
    // The keys' own limits interleave by id with the project's, so a wrong lock order would show as deadlocks.
    for (const id of keys)
      await database.db.execute(sql`insert into spend_limits (subject_kind, subject_id, unit, amount, period)
        values ('key', ${id}::uuid, 'tokens', 100000, 'day')`)
    await database.db.execute(sql`insert into spend_limits (subject_kind, subject_id, unit, amount, period)
      values ('project', ${project.id}::uuid, 'tokens', 3000, 'day')`)
    const before = await deadlocks()
    // Batches of two or three of the keys, as the metering batcher of several instances would send them at once.
    const batch = (n: number): EntryInput[] =>
      [keys[n % 6], keys[(n + 2) % 6], ...(n % 2 ? [keys[(n + 3) % 6]] : [])].map((keyId) => ({
        keyId,
        amount: -50,
        type: 'consume' as const,
        externalRef: `usage:${randomUUID()}`,
        product: 'embeddings',
      }))
    const results = await Promise.all(Array.from({ length: 48 }, (_, n) => applyEntries(database.db, batch(n))))
    const outcomes = results.flat().map((r) => r.outcome)
    expect(outcomes.filter((o) => o === 'applied')).toHaveLength(60)
    expect(outcomes.filter((o) => o === 'over_spend_limit')).toHaveLength(outcomes.length - 60)
    expect(await deadlocks()).toBe(before)
    const consumed = await scalar(
      database.db,
      sql`select -sum(amount) from ledger_entries where type = 'consume' and key_id in (${sql.join(
        keys.map((id) => sql`${id}::uuid`),
        sql`, `,
      )})`,
    )
    expect(consumed).toBe(3000)
    expect(await auditLedger(database.db)).toEqual([])
  })
})
