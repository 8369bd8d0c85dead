import { ESLint } from 'eslint'
import { globSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

/**
 * Each fixture in tests/fixtures/layering/ is a deliberate layering violation: its first line names the path
 * it is linted at (where the rule's glob matches), its second what it breaks. The project's own ESLint
 * config must refuse every one; a rule that is removed or loosened lets its fixture pass and this test fail.
 */
const root = join(import.meta.dirname, '../..')
const folder = join(root, 'tests/fixtures/layering')
const fixtures = readdirSync(folder)
  .filter((name) => name.endsWith('.txt'))
  .map((name) => {
    const text = readFileSync(join(folder, name), 'utf8')
    const [, at] = /^\/\/ at: (.+)$/m.exec(text) ?? []
    const [, breaks] = /^\/\/ breaks: (.+)$/m.exec(text) ?? []
    return { name, at: at!, breaks: breaks!, text }
  })

const eslint = new ESLint({ cwd: root })
const layeringRules = new Set([
  'import-x/no-restricted-paths',
  'layers/packages',
  'layers/unassigned',
  // Operations and the domain take the Caller, never the Request (eslint.config.js, `noRequest`).
  '@typescript-eslint/no-restricted-types',
  'no-restricted-globals',
])

async function layeringErrors(text: string, at: string): Promise<string[]> {
  const [result] = await eslint.lintText(text, { filePath: join(root, at) })
  return result!.messages.filter((m) => m.ruleId && layeringRules.has(m.ruleId)).map((m) => m.message)
}

describe('the linter refuses every deliberate layering violation', () => {
  it('has a fixture for each kind of violation', () => {
    expect(fixtures.length).toBeGreaterThanOrEqual(55)
    for (const fixture of fixtures) expect(fixture.at && fixture.breaks, fixture.name).toBeTruthy()
  })

  it.each(fixtures)(
    '$name: $breaks',
    async ({ text, at }) => {
      expect(await layeringErrors(text, at)).not.toEqual([])
    },
    60_000,
  )

  it('lets the imports the layers allow through', async () => {
    const endpoint =
      "import { databaseReady } from '~/server/api/health'\nimport { jsonResponse } from '~/server/http/errors'\nexport const x = [databaseReady, jsonResponse]\n"
    expect(await layeringErrors(endpoint, 'app/routes/api/v1/fixture.ts')).toEqual([])
    const domain =
      "import { sql } from 'drizzle-orm'\nimport { createHash } from 'node:crypto'\nexport const x = [sql, createHash]\n"
    expect(await layeringErrors(domain, 'app/server/domain/fixture.ts')).toEqual([])
  }, 60_000)

  it('puts every source file in exactly one layer', async () => {
    const files = globSync(['app/**/*.{ts,tsx}', 'content/**/*.ts', 'app.config.ts'], { cwd: root }).filter(
      (file) => !file.startsWith('app/server/db/migrations/'),
    )
    expect(files.length).toBeGreaterThan(500)
    const wrong: string[] = []
    for (const file of files) {
      // The generated route tree is not linted (tests/unit/import-circles.test.ts reads its imports).
      if (await eslint.isPathIgnored(join(root, file))) {
        if (file !== 'app/routeTree.gen.ts') wrong.push(`${file}: ignored by the linter`)
        continue
      }
      const config = await eslint.calculateConfigForFile(join(root, file))
      const inLayers = Object.keys(config?.settings?.layer ?? {})
      if (inLayers.length !== 1) wrong.push(`${file}: ${inLayers.join(', ') || 'no layer'}`)
    }
    expect(wrong).toEqual([])
  }, 120_000)
})
