import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { catalogLocales, sourceLocale } from '../../app.config'
import { entryKey, readPo, type PoEntry } from '../support/po'

/** The main catalog, the live demos' own (loaded with their code) and the live screens' (see lingui.config.ts). */
const catalogs = ['messages', 'demos', 'app'] as const
type Catalog = (typeof catalogs)[number]
const catalogPath = (root: string, locale: string, catalog: Catalog) => join(root, locale, `${catalog}.po`)
const committed = (locale: string, catalog: Catalog) => readPo(catalogPath('locales', locale, catalog))
const placeholders = (text: string) => [...text.matchAll(/\{(\w+)/g)].map((m) => m[1]).sort()
/** A message of three or more words left in English is untranslated, not a coincidence. */
const looksUntranslated = (entry: PoEntry) =>
  entry.msgstr === entry.msgid && entry.msgid.split(/\s+/).filter((w) => /\p{L}{2,}/u.test(w)).length >= 3

describe('translation catalogs', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'catalogs-'))
  afterAll(() => rmSync(scratch, { recursive: true, force: true }))

  it('hold every message the code uses, and nothing stale', () => {
    execFileSync(process.execPath, ['node_modules/@lingui/cli/dist/lingui.js', 'extract', '--locale', sourceLocale], {
      env: { ...process.env, LINGUI_CATALOG_ROOT: scratch },
      stdio: 'pipe',
    })
    for (const catalog of catalogs) {
      const fromCode = readPo(catalogPath(scratch, sourceLocale, catalog))
        .map(entryKey)
        .sort()
      expect(committed(sourceLocale, catalog).map(entryKey).sort(), catalog).toEqual(fromCode)
    }
  }, 60_000)

  for (const [catalogName, locale] of catalogs.flatMap((c) =>
    catalogLocales.filter((l) => l !== sourceLocale).map((l) => [c, l] as const),
  )) {
    const source = committed(sourceLocale, catalogName)
    it(`${locale} translates every message of ${catalogName}.po, keeping its placeholders`, () => {
      const catalog = new Map(committed(locale, catalogName).map((entry) => [entryKey(entry), entry]))
      const problems: string[] = []
      for (const entry of source) {
        const translated = catalog.get(entryKey(entry))
        if (!translated) problems.push(`missing: ${entry.msgid}`)
        else if (!translated.msgstr.trim()) problems.push(`untranslated: ${entry.msgid}`)
        else if (looksUntranslated(translated)) problems.push(`left in English: ${entry.msgid}`)
        else if (placeholders(translated.msgstr).join() !== placeholders(entry.msgid).join())
          problems.push(`placeholders differ: ${entry.msgid} → ${translated.msgstr}`)
      }
      expect(problems.slice(0, 20), `${problems.length} problems`).toEqual([])
    })
  }
})
