import { execFileSync } from 'node:child_process'
import { describe, expect, inject, it } from 'vitest'
import { marketingPages } from './support/pages'
import { measure, pageResults } from './support/lighthouse'
import { recordResults, type BenchResult } from './support/results'

const baseUrl = inject('baseUrl')

/**
 * A phone draws Japanese in its own system font. A machine without one (a bare Debian has none) draws boxes
 * after searching every font for each character, which Lighthouse counts as layout time: say so on those rows.
 */
const japaneseFont = (() => {
  try {
    return execFileSync('fc-list', [':lang=ja'], { encoding: 'utf8' }).trim() !== ''
  } catch {
    return false
  }
})()

describe('Lighthouse on marketing pages', () => {
  it('scores landing, a product page, the catalogue and a news post in English and Japanese', async () => {
    const results: BenchResult[] = []
    for (const path of marketingPages) {
      const font =
        path.startsWith('/ja') && !japaneseFont ? '; no Japanese font on this machine (fc-list :lang=ja)' : ''
      results.push(...pageResults(path, await measure(baseUrl + path), { extraNote: font }))
    }
    recordResults('lighthouse', results)
    expect(results.filter((r) => r.name.endsWith('accessibility')).every((r) => r.value === 100)).toBe(true)
  }, 1_800_000)
})
