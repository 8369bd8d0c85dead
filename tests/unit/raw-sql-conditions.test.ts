import { ESLint } from 'eslint'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

/**
 * The lint rule that keeps a raw sql fragment from widening an owner's query (eslint.config.js, `ownerQueries`):
 * `and(owner, sql\`a or b\`)` reads `(owner and a) or b`. Linted as a domain file with the project's config.
 */
const root = join(import.meta.dirname, '../..')
const eslint = new ESLint({ cwd: root })
const head =
  "import { and, eq, isNotNull, ne, not, or, sql } from 'drizzle-orm'\nimport { purchases as t } from '../db/schema'\n"

async function refusals(body: string): Promise<string[]> {
  const [result] = await eslint.lintText(head + body, { filePath: join(root, 'app/server/domain/fixture.ts') })
  return result!.messages.filter((m) => m.ruleId === 'no-restricted-syntax').map((m) => m.message)
}

describe('raw sql conditions', () => {
  it.each([
    [
      'in and()',
      "export const w = and(eq(t.keyId, 'k'), sql`${t.status} <> 'pending' or ${t.paymentIntentId} is not null`)\n",
    ],
    ['in where()', "export const q = (db: any) => db.select().from(t).where(sql`${t.status} = 'paid' OR true`)\n"],
    ['in a branch of and()', "export const w = (c: boolean) => and(eq(t.keyId, 'k'), c ? sql`a or b` : undefined)\n"],
    ['in not()', 'export const w = not(sql`a or b`)\n'],
  ])(
    'refuses an `or` %s',
    async (_, body) => {
      expect((await refusals(body)).join('\n')).toMatch(/drizzle’s or\(\)/)
    },
    60_000,
  )

  it("lets drizzle's or() and whole statements through", async () => {
    expect(
      await refusals(
        "export const w = and(eq(t.keyId, 'k'), or(ne(t.status, 'pending'), isNotNull(t.paymentIntentId)))\n" +
          'export const s = (db: any) => db.execute(sql`select 1 from purchases where status = $1 or true`)\n',
      ),
    ).toEqual([])
  }, 60_000)
})
