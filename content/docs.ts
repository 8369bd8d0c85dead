import { brand } from '../app.config'
import { docsEntries } from './docs-index'
import type { DocPage } from './schemas'

const sources = import.meta.glob<string>('./docs/*.md', { query: '?raw', import: 'default', eager: true })

/** The documentation's Markdown bodies, by slug (the file's name). Server-side: pages get one at a time. */
export const docPages: DocPage[] = Object.entries(sources)
  .map(([file, body]) => ({ slug: file.replace(/^.*\//, '').replace(/\.md$/, ''), body: body.replace(/\r\n?/g, '\n') }))
  .sort((a, b) => a.slug.localeCompare(b.slug))

export function getDocPage(slug: string): DocPage | undefined {
  return docPages.find((page) => page.slug === slug)
}

/**
 * The origins the samples are written against. The site shows them as the server's own
 * (PUBLIC_API_BASE_URL, PUBLIC_BASE_URL), and the samples test runs them against its test server.
 */
export const documentedOrigins = {
  /** Where the search APIs (`/v1`, `/r`) are called. */
  api: `https://api.${brand.domain}`,
  /** The site, its dashboard API (`/api/v1`) and its pages. */
  site: `https://${brand.domain}`,
} as const

/** A fenced block's info string: its language, whether the tests run it (`sh test`), whether it shows an answer (`json answer`). */
export function codeInfo(info: string): { language: string; runnable: boolean; answer: boolean } {
  const [language = '', ...flags] = info.trim().split(/\s+/)
  return { language, runnable: flags.includes('test'), answer: flags.includes('answer') }
}

/** What the schemas cannot see: every index entry has its file and every file its entry, each once. */
export function docsProblems(): string[] {
  const problems: string[] = []
  const files = new Set(docPages.map((page) => page.slug))
  const entries = docsEntries.map((entry) => entry.slug)
  for (const slug of entries) if (!files.has(slug)) problems.push(`docs index: ${slug} has no content/docs/${slug}.md`)
  for (const slug of files)
    if (!entries.includes(slug)) problems.push(`content/docs/${slug}.md has no entry in docs-index.ts`)
  for (const [i, slug] of entries.entries())
    if (entries.indexOf(slug) !== i) problems.push(`docs index: ${slug} is listed twice`)
  return problems
}
